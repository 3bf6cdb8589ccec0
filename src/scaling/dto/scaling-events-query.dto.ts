import { ApiProperty } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { PageQueryDto } from '../../pagination/page-query.dto';

/**
 * Checked by `toTimeWindow` (so the raw strings are kept); declared so that the validation pipe
 * keeps both fields, and documented as what they must be: int64, both required.
 */
export class ScalingEventsQueryDto extends PageQueryDto {
  /** Start of the window, ms since 1970 (inclusive). */
  @ApiProperty({ type: 'integer', format: 'int64', minimum: 0, required: true })
  @IsOptional()
  from?: string;

  /** End of the window, ms since 1970 (inclusive); not before `from`. */
  @ApiProperty({ type: 'integer', format: 'int64', minimum: 0, required: true })
  @IsOptional()
  to?: string;
}
