import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { repeatsIn } from '../../common/list-elements';
import { EachElement, HasNoNul, RefusesUnknownParameters } from '../../common/validators';
import { SCALING_TYPES, type ScalingType } from '../../streams/scaling-policy';
import { MAX_TAG_LENGTH } from '../../streams/stream-tags';

/** Days that stay exact in minutes, the unit a retention is kept in. */
const MAX_DAYS = Math.floor(Number.MAX_SAFE_INTEGER / 1440);

/** Each element of `field` a pattern of 1..`max` characters, listed once. */
const patternProblem =
  (field: string, max: number) =>
  (element: unknown, index: number, all: readonly unknown[]): string | undefined => {
    if (typeof element !== 'string') return 'must be a string';
    if (element.length < 1 || element.length > max) return `must be 1 to ${max} characters long`;
    if (element.includes('\u0000')) return 'must not contain NUL';
    const first = repeatsIn(all).get(index);
    return first === undefined ? undefined : `repeats ${field}[${first}]`;
  };

@ApiSchema({ name: 'RetentionRule' })
@RefusesUnknownParameters()
export class RetentionRuleDto {
  /** A stream must have a retention policy. */
  @IsOptional()
  @IsBoolean()
  required?: boolean;

  /**
   * Each limit of a `LIMITED_DAYS` retention (its minimum, and its maximum if set), in days with
   * hours and minutes as fractions of a day, is at most this.
   */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_DAYS)
  maxDays?: number;

  /** Each limit of a `LIMITED_SIZE_MB` retention, in MB, is at most this. */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  maxSizeMb?: number;
}

/**
 * The limits and rules of a scope (docs/extensions.md section 10). Every field optional: absent is no limit,
 * and `{}` is no policy. An unknown field is refused, naming it.
 */
@ApiSchema({ name: 'ScopePolicy' })
@RefusesUnknownParameters()
export class ScopePolicyDto {
  /** Who answers for the scope. 1 to 200 characters. */
  @IsOptional()
  @IsString()
  @Length(1, 200)
  @HasNoNul()
  owner?: string;

  /** At most 2,000 characters. */
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  @HasNoNul()
  description?: string;

  /** The most user streams the scope may hold, sealed ones included (internal `_` ones are not counted). */
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  maxStreams?: number;

  /** The most active segments one stream may have. */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100_000)
  maxSegmentsPerStream?: number;

  /** The most active segments of all the scope's user streams together. */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(10_000_000)
  maxActiveSegments?: number;

  /**
   * A new stream's whole name must match one of these (case-sensitive): `*` any run of
   * characters, none too; `?` exactly one; any other character itself. 1 to 50 patterns.
   * @example ["orders-*", "payments-??"]
   */
  @ApiProperty({ type: [String], minItems: 1, maxItems: 50, required: false })
  @IsOptional()
  @IsArray()
  @ArrayNotEmpty({ message: 'must list at least one pattern' })
  @ArrayMaxSize(50, { message: 'must list at most $constraint1 patterns' })
  @EachElement('isStreamNamePattern', patternProblem('streamNames', 250))
  streamNames?: string[];

  /** A stream's scaling policy type must be one of these. */
  @ApiProperty({
    enum: SCALING_TYPES,
    isArray: true,
    minItems: 1,
    maxItems: SCALING_TYPES.length,
    required: false,
  })
  @IsOptional()
  @IsArray()
  @ArrayNotEmpty({ message: 'must list at least one scaling type' })
  @ArrayMaxSize(SCALING_TYPES.length, { message: 'must list each scaling type at most once' })
  @IsIn(SCALING_TYPES, {
    each: true,
    message: `each must be one of ${SCALING_TYPES.join(', ')}`,
  })
  @EachElement('isScalingTypeOnce', (_element, index, all) => {
    const first = repeatsIn(all).get(index);
    return first === undefined ? undefined : `repeats scalingTypes[${first}]`;
  })
  scalingTypes?: ScalingType[];

  /** Bounds on streams' retention policies. */
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => RetentionRuleDto)
  retention?: RetentionRuleDto;

  /**
   * For each pattern (the form of `streamNames`), one of a stream's tags at least must match it:
   * `owner:*` makes every stream name its owner. 1 to 20 patterns.
   */
  @ApiProperty({ type: [String], minItems: 1, maxItems: 20, required: false })
  @IsOptional()
  @IsArray()
  @ArrayNotEmpty({ message: 'must list at least one pattern' })
  @ArrayMaxSize(20, { message: 'must list at most $constraint1 patterns' })
  @EachElement('isTagPattern', patternProblem('requiredTags', MAX_TAG_LENGTH))
  requiredTags?: string[];
}
