import { ApiProperty } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';

export class ScaleQueryDto {
  /** `true`: answer what the scale would do, and change nothing. */
  @ApiProperty({ type: 'boolean', required: false, default: false })
  @IsOptional()
  @Matches(/^(true|false)$/, { message: 'dryRun must be true or false' })
  dryRun?: string;
}
