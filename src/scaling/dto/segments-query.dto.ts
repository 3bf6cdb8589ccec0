import { ApiProperty } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';

/** Checked by `toInstant` (so the raw string is kept); declared so the pipe keeps it. */
export class SegmentsQueryDto {
  /** The moment, ms since 1970; absent: now (the current epoch). */
  @ApiProperty({ type: 'integer', format: 'int64', minimum: 0, required: false })
  @IsOptional()
  at?: string;
}
