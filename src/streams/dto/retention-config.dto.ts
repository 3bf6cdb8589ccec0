import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { Type, TypeHelpOptions } from 'class-transformer';
import {
  IsIn,
  IsObject,
  IsOptional,
  ValidateBy,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { IsInt64, IsRequired, NotNegative } from '../../common/validators';
import { RETENTION_TYPES, retentionLimitProblem } from '../retention-policy';
import type { RetentionLimitField, RetentionPolicyInput, RetentionType } from '../retention-policy';
import { DaysHoursMinutesDto, TimeBasedRetentionDto } from './time-based-retention.dto';

/**
 * The rules between the limits of a policy (each fits, the maximum is not below the minimum),
 * reported at the field the failing limit was read from.
 */
const RetentionLimit = (field: RetentionLimitField): PropertyDecorator =>
  ValidateBy({
    name: 'isRetentionLimit',
    validator: {
      validate: (_: unknown, args) =>
        retentionLimitProblem(args?.object as RetentionPolicyInput, field) === undefined,
      defaultMessage: (args) =>
        retentionLimitProblem(args?.object as RetentionPolicyInput, field) ?? '',
    },
  });

/** Only a time policy reads its time parts, so only there must they not be negative. */
const timePartsOf = (options?: TypeHelpOptions) =>
  (options?.object as Partial<RetentionConfigDto> | undefined)?.type === 'LIMITED_SIZE_MB'
    ? TimeBasedRetentionDto
    : DaysHoursMinutesDto;

@ApiSchema({ name: 'RetentionConfig' })
export class RetentionConfigDto {
  /** Whether retention is by time or by space. */
  @ApiProperty({ enum: RETENTION_TYPES })
  @IsIn(RETENTION_TYPES, { message: `type must be one of ${RETENTION_TYPES.join(', ')}` })
  type: RetentionType;

  /** Minimum retention: days (LIMITED_DAYS) or MiB (LIMITED_SIZE_MB). */
  @ValidateIf(
    (policy: RetentionConfigDto, value: unknown) =>
      policy.type === 'LIMITED_SIZE_MB' || value != null,
  )
  @IsRequired()
  @IsInt64()
  @NotNegative()
  @RetentionLimit('value')
  value?: number;

  /** Minimum retention as days, hours and minutes (LIMITED_DAYS with value 0). */
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(timePartsOf)
  @RetentionLimit('timeBasedRetention')
  timeBasedRetention?: TimeBasedRetentionDto;

  /** Maximum retention: days (LIMITED_DAYS) or MiB (LIMITED_SIZE_MB). */
  @IsOptional()
  @IsInt64()
  @NotNegative()
  @RetentionLimit('maxValue')
  maxValue?: number;

  /** Maximum retention as days, hours and minutes (LIMITED_DAYS with maxValue 0). */
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(timePartsOf)
  @RetentionLimit('maxTimeBasedRetention')
  maxTimeBasedRetention?: TimeBasedRetentionDto;
}
