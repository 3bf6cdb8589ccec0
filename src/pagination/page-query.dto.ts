import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length } from 'class-validator';
import { IsQueryInteger } from '../common/validators';

/** The paging parameters every list takes (docs/extensions.md section 1). */
export class PageQueryDto {
  /** At most this many items (1 to 1000); `continuationToken` alone means 100. */
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 1000 })
  @IsOptional()
  @IsQueryInteger(1, 1000, 'limit must be an integer from 1 to 1000')
  limit?: number;

  /** Where the previous page ended: its `continuationToken`, as the service issued it. */
  @IsOptional()
  @IsString()
  @Length(1, 4096)
  continuationToken?: string;
}
