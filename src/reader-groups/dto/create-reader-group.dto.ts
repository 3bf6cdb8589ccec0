import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsString } from 'class-validator';
import { IsStreamName } from '../../common/validators';
import { MAX_GROUP_STREAMS } from '../stream-ref';

/** Extension: the contract has no write operations for reader groups. */
@ApiSchema({ name: 'CreateReaderGroupRequest' })
export class CreateReaderGroupDto {
  /**
   * 1 to 250 characters of A-Z a-z 0-9 . - ; names starting with `_` are reserved.
   * @example "billing-readers"
   */
  @IsStreamName()
  readerGroupName: string;

  /**
   * The streams the group reads: `stream` (same scope) or `scope/stream`; 1 to 1,000.
   * @example ["orders", "sales/refunds"]
   */
  @ApiProperty({ maxItems: MAX_GROUP_STREAMS })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(MAX_GROUP_STREAMS, { message: 'must list at most $constraint1 streams' })
  @IsString({ each: true })
  streams: string[];
}
