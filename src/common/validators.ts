import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import {
  IsInt,
  Max,
  Min,
  ValidateBy,
  ValidationArguments,
  ValidationOptions,
} from 'class-validator';
import { FieldViolation } from './domain-error';
import { scopeNameProblem, streamNameProblem } from './names';
import { ApiInt32, ApiInt64 } from '../openapi/api-formats';

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

/** The name of the rule `IsRequired`: when it fails, it is all its field's answer says. */
export const REQUIRED_RULE = 'isRequired';

/**
 * The value must be given. A missing value is reported as missing only, not also as a number
 * of the wrong kind (`toViolations` keeps this one message). Under `ValidateIf`, required only
 * when the condition holds.
 */
export const IsRequired = (): PropertyDecorator =>
  ValidateBy({
    name: REQUIRED_RULE,
    validator: {
      validate: (value: unknown) => value !== undefined && value !== null,
      defaultMessage: () => 'is required',
    },
  });

/**
 * A rule of a number's meaning, which may look at the object holding it (a policy's type). A
 * value that is not a number passes: the shape's rules (`IsInt32`, `IsInt64`) report it.
 */
export function NumberRule(
  name: string,
  problem: (value: number, holder: object) => string | undefined,
): PropertyDecorator {
  const problemOf = (value: unknown, args?: ValidationArguments): string | undefined =>
    typeof value === 'number' ? problem(value, args?.object ?? {}) : undefined;
  return ValidateBy({
    name,
    validator: {
      validate: (value: unknown, args) => problemOf(value, args) === undefined,
      defaultMessage: (args) => problemOf(args?.value, args) ?? '',
    },
  });
}

/**
 * A query value as written: only digits become a number (`1.5`, `1e2`, `abc` and an empty value
 * stay strings, which the rule then refuses).
 */
const queryDigits = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value;

/**
 * A query integer written in digits (digits are made a number here; anything else stays a
 * string) within [min, max]. One rule with one message, whatever is wrong: `abc` is
 * not also "not less than 1" and "not greater than 1000" (each problem named once,
 * docs/behaviour.md section 2).
 */
export const IsQueryInteger = (min: number, max: number, message: string): PropertyDecorator =>
  applyDecorators(
    Transform(queryDigits),
    ValidateBy({
      name: 'isQueryInteger',
      validator: {
        validate: (value: unknown) =>
          typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max,
        defaultMessage: () => message,
      },
    }),
  );

/** Refuses a number below 0. */
export const NotNegative = (): PropertyDecorator =>
  NumberRule('notNegative', (value) => (value < 0 ? 'must not be negative' : undefined));

/** A problem of one field inside an element (`at`: its path in the element; '' the element). */
export interface ElementFieldProblem {
  at: string;
  message: string;
}

/**
 * Why the element at `index` of an array is refused, or undefined: one message for the element,
 * or each problem of its fields (a list of many objects checked in one pass, where validating
 * each as a nested DTO would cost more than the rest of its request).
 */
export type ElementProblem = (
  element: unknown,
  index: number,
  array: readonly unknown[],
) => string | ElementFieldProblem[] | undefined;

const problemsOf = (found: ReturnType<ElementProblem>): ElementFieldProblem[] =>
  found === undefined ? [] : typeof found === 'string' ? [{ at: '', message: found }] : found;

const elementRules = new Map<string, ElementProblem>();

/**
 * A rule over each element of an array whose answer names the element (`streamTags[1]`), which
 * class-validator's `each` cannot: `toViolations` asks the rule again for each element.
 */
export function EachElement(name: string, problem: ElementProblem): PropertyDecorator {
  elementRules.set(name, problem);
  return ValidateBy({
    name,
    validator: {
      validate: (value: unknown) =>
        !Array.isArray(value) ||
        value.every((element, i, all) => problemsOf(problem(element, i, all)).length === 0),
      defaultMessage: () => 'has an invalid element',
    },
  });
}

/**
 * Each element of a list of nested objects is an object. `ValidateNested` takes an element that
 * is itself an array for a list of objects, so `[[]]` would pass it with nothing checked, and
 * its fields would be read as undefined: a client mistake must be a 400 naming the element
 * (docs/behaviour.md section 2). `null` and scalars are named by `ValidateNested` already.
 */
export const EachElementIsObject = (): PropertyDecorator =>
  EachElement('isObjectElement', (element) =>
    Array.isArray(element) ? 'must be an object, not an array' : undefined,
  );

/** The violations of an element rule named `rule`, or undefined when `rule` is not one. */
export function elementViolations(
  rule: string,
  array: unknown,
  field: string,
): FieldViolation[] | undefined {
  const problem = elementRules.get(rule);
  if (!problem || !Array.isArray(array)) return undefined;
  return array.flatMap((element, i, all) =>
    problemsOf(problem(element, i, all)).map(({ at, message }) => ({
      field: at ? `${field}[${i}].${at}` : `${field}[${i}]`,
      message,
    })),
  );
}

const REFUSES_UNKNOWN_PARAMETERS = Symbol('refusesUnknownParameters');

/**
 * Marks a query DTO whose unknown parameters are refused with a 400 naming each, where other
 * queries drop them (the contract's routes ignore what they do not know).
 */
export const RefusesUnknownParameters =
  (): ClassDecorator =>
  (target): void => {
    Reflect.defineMetadata(REFUSES_UNKNOWN_PARAMETERS, true, target);
  };

/** Whether `dto`'s class refuses unknown parameters ({@link RefusesUnknownParameters}). */
export const refusesUnknownParameters = (dto: object): boolean =>
  Reflect.getMetadata(REFUSES_UNKNOWN_PARAMETERS, dto.constructor) === true;
