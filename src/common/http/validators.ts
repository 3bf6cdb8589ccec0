import { applyDecorators } from '@nestjs/common';
import { IsInt, Max, Min, ValidateBy, ValidationOptions } from 'class-validator';
import { scopeNameProblem, streamNameProblem } from '../names';
import { ApiInt32, ApiInt64 } from './api-formats';

const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;

/** An integer that fits the contract's int32 (and is documented so). */
export const IsInt32 = (): PropertyDecorator =>
  applyDecorators(ApiInt32(), IsInt(), Min(INT32_MIN), Max(INT32_MAX));

/**
 * An int64 that JSON numbers carry exactly: beyond 2^53-1 precision is lost, so refuse it.
 * Documented as int64.
 */
export const IsInt64 = (): PropertyDecorator =>
  applyDecorators(
    ApiInt64(),
    IsInt(),
    Min(-Number.MAX_SAFE_INTEGER, { message: '$property must be at least -(2^53-1)' }),
    Max(Number.MAX_SAFE_INTEGER, { message: '$property must be at most 2^53-1' }),
  );

function nameRule(
  name: string,
  problem: (value: unknown) => string | undefined,
  options?: ValidationOptions,
): PropertyDecorator {
  return ValidateBy(
    {
      name,
      validator: {
        validate: (value: unknown) => problem(value) === undefined,
        defaultMessage: (args) => `${args?.property ?? 'name'} ${problem(args?.value) ?? ''}`,
      },
    },
    options,
  );
}

/** 1..255 characters of A-Z a-z 0-9 . - not starting with `_`. */
export const IsScopeName = (options?: ValidationOptions) =>
  nameRule('isScopeName', scopeNameProblem, options);

/** 1..250 characters of A-Z a-z 0-9 . - not starting with `_`. */
export const IsStreamName = (options?: ValidationOptions) =>
  nameRule('isStreamName', streamNameProblem, options);

/** Text PostgreSQL can store: it cannot hold NUL, so such a value is a client mistake (400). */
export const HasNoNul = (): PropertyDecorator =>
  nameRule('hasNoNul', (value) =>
    typeof value === 'string' && value.includes('\u0000') ? 'must not contain NUL' : undefined,
  );
