import { Type } from 'class-transformer';
import { IsOptional, IsString, Length } from 'class-validator';
import { PageQueryDto } from '../../pagination/page-query.dto';
import { HasNoNul, IsInt64 } from '../../common/validators';

/**
 * Filters, and the paging parameters: without `limit` and `continuationToken` the answer is the
 * newest 100, as before paging existed.
 */
export class AuditQueryDto extends PageQueryDto {
  /** Events at or after this time, in milliseconds since 1970. */
  @IsOptional()
  @Type(() => Number)
  @IsInt64()
  from?: number;

  /** Events at or before this time, in milliseconds since 1970. */
  @IsOptional()
  @Type(() => Number)
  @IsInt64()
  to?: number;

  /** Events on exactly this resource (`prn::/scope:sales/stream:orders`). */
  @IsOptional()
  @IsString()
  @Length(1, 1024)
  @HasNoNul()
  resource?: string;

  /** Events of this account (`anonymous` without authentication). */
  @IsOptional()
  @IsString()
  @Length(1, 256)
  @HasNoNul()
  principal?: string;
}

/** What selects the events, paging aside. */
export type AuditFilter = Pick<AuditQueryDto, 'from' | 'to' | 'resource' | 'principal'>;
