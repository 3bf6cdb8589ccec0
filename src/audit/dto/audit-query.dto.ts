import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { HasNoNul, IsInt64 } from '../../common/http/validators';

export class AuditQueryDto {
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

  /** At most this many events (newest first). */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  limit: number = 100;
}
