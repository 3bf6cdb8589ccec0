import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayNotEmpty, IsArray } from 'class-validator';
import { perArray, repeatedElements } from '../../common/list-elements';
import {
  EachElement,
  type ElementFieldProblem,
  IsRequired,
  RefusesUnknownParameters,
} from '../../common/validators';
import { ApiDouble, ApiInt64 } from '../../openapi/api-formats';
import { MAX_SEGMENT_NUMBER } from '../../scaling/segment-number';

/** At most this many reports in one request. */
export const MAX_REPORTS = 1000;

/** How far ahead of the service's clock a report's `since` may be: clocks differ a little. */
export const MAX_SINCE_AHEAD_MS = 60_000;

const RATES = ['twoMinuteRate', 'fiveMinuteRate', 'tenMinuteRate', 'twentyMinuteRate'] as const;
const FIELDS = new Set<string>(['segment', 'since', ...RATES]);

/**
 * Each problem of one report, named by its field; checked by hand in one pass over the list,
 * where a nested DTO per report (class-transformer and class-validator for each of 1,000) cost
 * more CPU than the rest of the request (bench:load).
 */
function reportProblems(report: unknown): string | ElementFieldProblem[] | undefined {
  if (typeof report !== 'object' || report === null || Array.isArray(report)) {
    return 'must be an object';
  }
  const fields = report as Record<string, unknown>;
  const problems: ElementFieldProblem[] = [];
  for (const key of Object.keys(fields)) {
    if (!FIELDS.has(key)) problems.push({ at: key, message: 'is not a known field' });
  }
  const integer = (at: 'segment' | 'since', max: number, beyond: string): void => {
    const value = fields[at];
    if (value === undefined || value === null) problems.push({ at, message: 'is required' });
    else if (!Number.isInteger(value) || (value as number) < 0) {
      problems.push({ at, message: 'must be an integer >= 0' });
    } else if ((value as number) > max) problems.push({ at, message: beyond });
  };
  integer('segment', MAX_SEGMENT_NUMBER, `must be at most ${MAX_SEGMENT_NUMBER}`);
  integer(
    'since',
    Date.now() + MAX_SINCE_AHEAD_MS,
    `must not be more than ${MAX_SINCE_AHEAD_MS / 1000} s ahead of the service's clock`,
  );
  for (const at of RATES) {
    const value = fields[at];
    if (value === undefined || value === null) problems.push({ at, message: 'is required' });
    else if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      problems.push({ at, message: 'must be a number >= 0' });
    }
  }
  return problems;
}

/**
 * For each report that names the segment of an earlier one, the index of that one: once per
 * list, whatever its length (an integer segment only; other values have their own rules).
 */
const repeatedSegments = perArray((reports) =>
  repeatedElements(
    reports.map((report, index) => {
      const segment: unknown =
        typeof report === 'object' && report !== null
          ? (report as Record<string, unknown>).segment
          : undefined;
      return Number.isInteger(segment) ? segment : { index };
    }),
  ),
);

/** One segment's measured rates (documents the shape; `reports`' own rule checks it). */
@ApiSchema({ name: 'LoadReport' })
export class LoadReportDto {
  /** The number of the segment measured. @example 3 */
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0, maximum: MAX_SEGMENT_NUMBER })
  segment: number;

  /**
   * When the reporter began measuring the segment (the start of its moving averages), ms since
   * 1970; at most 60 s ahead of the service's clock.
   * @example 1764000000000
   */
  @ApiInt64()
  since: number;

  /** The segment's rate over the last two minutes, in the policy's unit, >= 0. @example 620.5 */
  @ApiDouble()
  twoMinuteRate: number;

  /** Over the last five minutes, >= 0. @example 300 */
  @ApiDouble()
  fiveMinuteRate: number;

  /** Over the last ten minutes, >= 0. @example 150 */
  @ApiDouble()
  tenMinuteRate: number;

  /** Over the last twenty minutes, >= 0. @example 80 */
  @ApiDouble()
  twentyMinuteRate: number;
}

/** Reports of a stream's segments' load (extension; docs/extensions.md section 11). */
@ApiSchema({ name: 'LoadReportRequest' })
@RefusesUnknownParameters()
export class LoadReportRequestDto {
  /** 1 to 1,000 reports, a segment at most once; taken in this order. */
  @ApiProperty({ type: () => [LoadReportDto], minItems: 1, maxItems: MAX_REPORTS })
  @IsRequired()
  @IsArray()
  @ArrayNotEmpty({ message: 'must hold at least one report' })
  @ArrayMaxSize(MAX_REPORTS, { message: `must hold at most ${MAX_REPORTS} reports` })
  @EachElement('isLoadReport', (element, index, all) => {
    const problems = reportProblems(element);
    if (typeof problems === 'string') return problems;
    const first = repeatedSegments(all).get(index);
    if (first !== undefined) {
      const segment = (element as LoadReportDto).segment;
      problems!.push({ at: '', message: `reports segment ${segment}, as reports[${first}] does` });
    }
    return problems;
  })
  reports: LoadReportDto[];
}
