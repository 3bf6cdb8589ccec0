import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ProblemPolicyViolationDto } from '../../http/problem-document.dto';
import { ApiInt32 } from '../../openapi/api-formats';
import { SegmentDto } from '../../scaling/dto/scaling-event-list.dto';
import { LOAD_OUTCOMES, LOAD_REASONS, type LoadOutcome, type LoadReason } from '../load-result';

/** What one report did (extension). */
@ApiSchema({ name: 'LoadResult' })
export class LoadResultDto {
  /** The segment reported. @example 3 */
  @ApiInt32()
  segment: number;
  /** @example "scaledUp" */
  @ApiProperty({ enum: LOAD_OUTCOMES })
  outcome: LoadOutcome;
  /** Why nothing was scaled, for `none`, `ignored`, `markedCold` and `refused`. */
  @ApiProperty({ enum: LOAD_REASONS, required: false })
  reason?: LoadReason;
  /** The direction a `muted` report wanted. */
  @ApiProperty({ enum: ['up', 'down'], required: false })
  wanted?: 'up' | 'down';
  /** The rule that scaled, in words. @example "two-minute rate 620.5 > 5 x 100: split into 3" */
  because?: string;
  /** The segments a scale sealed, by number. */
  @ApiProperty({ type: 'integer', format: 'int32', isArray: true, required: false })
  sealedSegments?: number[];
  /** The segments a scale opened, by number. */
  @ApiProperty({ type: [SegmentDto], required: false })
  newSegments?: SegmentDto[];
  /** The rules of the scope's policy a `refused` scale would break. */
  @ApiProperty({ type: [ProblemPolicyViolationDto], required: false })
  violations?: ProblemPolicyViolationDto[];
}

/** What a request of reports did, or, as a dry run, would do (extension). */
@ApiSchema({ name: 'LoadAnswer' })
export class LoadAnswerDto {
  /** The stream's current epoch after every report. @example 4 */
  @ApiInt32()
  epoch: number;
  /** A result per report, in their order. */
  @ApiProperty({ type: [LoadResultDto] })
  results: LoadResultDto[];
}
