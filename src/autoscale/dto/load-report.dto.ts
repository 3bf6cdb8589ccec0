import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsInt,
  IsNumber,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { repeatsIn } from '../../common/list-elements';
import {
  EachElement,
  EachElementIsObject,
  IsRequired,
  NumberRule,
  RefusesUnknownParameters,
} from '../../common/validators';
import { ApiDouble, ApiInt64 } from '../../openapi/api-formats';
import { MAX_SEGMENT_NUMBER } from '../../scaling/segment-number';

/** At most this many reports in one request. */
export const MAX_REPORTS = 1000;

/** How far ahead of the service's clock a report's `since` may be: clocks differ a little. */
export const MAX_SINCE_AHEAD_MS = 60_000;

const RATE = 'must be a number >= 0';

/** A rate in the stream's policy's unit: a finite number, at least 0. */
const IsRate = (): PropertyDecorator => (target, property) => {
  ApiDouble()(target, property);
  IsRequired()(target, property);
  IsNumber({ allowNaN: false, allowInfinity: false }, { message: RATE })(target, property);
  Min(0, { message: RATE })(target, property);
};

@ApiSchema({ name: 'LoadReport' })
@RefusesUnknownParameters()
export class LoadReportDto {
  /** The number of the segment measured. @example 3 */
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0 })
  @IsRequired()
  @IsInt()
  @Min(0)
  @Max(MAX_SEGMENT_NUMBER)
  segment: number;

  /**
   * When the reporter began measuring the segment (the start of its moving averages), ms since
   * 1970; at most 60 s ahead of the service's clock.
   * @example 1764000000000
   */
  @ApiInt64()
  @IsRequired()
  @IsInt()
  @Min(0)
  @NumberRule('isNotAhead', (value) =>
    value > Date.now() + MAX_SINCE_AHEAD_MS
      ? `must not be more than ${MAX_SINCE_AHEAD_MS / 1000} s ahead of the service's clock`
      : undefined,
  )
  since: number;

  /** The segment's rate over the last two minutes, in the policy's unit. @example 620.5 */
  @IsRate()
  twoMinuteRate: number;

  /** Over the last five minutes. @example 300 */
  @IsRate()
  fiveMinuteRate: number;

  /** Over the last ten minutes. @example 150 */
  @IsRate()
  tenMinuteRate: number;

  /** Over the last twenty minutes. @example 80 */
  @IsRate()
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
  @ValidateNested({ each: true })
  @EachElementIsObject()
  @Type(() => LoadReportDto)
  @EachElement('isOnePerSegment', (element, index, all) => {
    const segments = all.map((report) =>
      typeof report === 'object' && report !== null ? (report as LoadReportDto).segment : report,
    );
    const first = Number.isInteger(segments[index]) ? repeatsIn(segments).get(index) : undefined;
    return first === undefined
      ? undefined
      : `reports segment ${segments[index] as number}, as reports[${first}] does`;
  })
  reports: LoadReportDto[];
}
