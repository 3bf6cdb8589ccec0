import { ApiProperty } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';
import { RefusesUnknownParameters } from './validators';

/**
 * The query of an operation that can plan instead of change (the apply, a manual scale). Any
 * other parameter is a 400: a mistyped `dryrun=true`, dropped, would make the change it was
 * meant only to plan.
 */
@RefusesUnknownParameters()
export class DryRunQueryDto {
  /** `true`: answer what the operation would do, and change nothing. */
  @ApiProperty({ type: 'boolean', required: false, default: false })
  @IsOptional()
  @Matches(/^(true|false)$/, { message: 'dryRun must be true or false' })
  dryRun?: string;
}
