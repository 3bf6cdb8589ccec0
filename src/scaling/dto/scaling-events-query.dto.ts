import { IsOptional } from 'class-validator';

/** Checked by `toTimeWindow`; declared so that the validation pipe keeps both fields. */
export class ScalingEventsQueryDto {
  /** Start of the window, ms since 1970 (inclusive). */
  @IsOptional()
  from?: string;

  /** End of the window, ms since 1970 (inclusive). */
  @IsOptional()
  to?: string;
}
