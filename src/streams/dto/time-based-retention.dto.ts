import { applyDecorators } from '@nestjs/common';
import { ApiSchema } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IsInt64, NotNegative } from '../../common/validators';

/** The shape of a time part: optional, an int64. */
const TimePart = (): PropertyDecorator => applyDecorators(IsOptional(), IsInt64());

@ApiSchema({ name: 'TimeBasedRetention' })
export class TimeBasedRetentionDto {
  @TimePart()
  days?: number;

  @TimePart()
  hours?: number;

  @TimePart()
  minutes?: number;
}

/**
 * The time parts of a `LIMITED_DAYS` policy, which reads them: none may be negative. Hours above
 * 23 and minutes above 59 are fine (they carry over). Every rule is repeated here because
 * class-validator drops the parent's rules of a property that declares rules of its own.
 */
export class DaysHoursMinutesDto extends TimeBasedRetentionDto {
  @TimePart()
  @NotNegative()
  override days?: number = undefined;

  @TimePart()
  @NotNegative()
  override hours?: number = undefined;

  @TimePart()
  @NotNegative()
  override minutes?: number = undefined;
}
