import { ValidationError, ValidationPipe } from '@nestjs/common';
import { FieldViolation, InvalidRequestError } from '../errors/domain-error';
import { elementViolations, REQUIRED_RULE } from './validators';

const joinPath = (parent: string, property: string): string => {
  if (/^\d+$/.test(property)) return `${parent}[${property}]`;
  return parent ? `${parent}.${property}` : property;
};

/**
 * Flattens class-validator's tree into one violation per broken rule, each named by the path of
 * its field. A missing required value says only that; an element rule names each element.
 */
export function toViolations(errors: ValidationError[], parent = ''): FieldViolation[] {
  return errors.flatMap((error) => {
    const field = joinPath(parent, error.property) || 'body';
    return [...ownViolations(error, field), ...toViolations(error.children ?? [], field)];
  });
}

function ownViolations(error: ValidationError, field: string): FieldViolation[] {
  const constraints = error.constraints ?? {};
  const required = constraints[REQUIRED_RULE];
  if (required !== undefined) return [{ field, message: required }];
  const value: unknown = (error.target as Record<string, unknown> | undefined)?.[error.property];
  return Object.entries(constraints).flatMap(
    ([rule, message]) => elementViolations(rule, value, field) ?? [{ field, message }],
  );
}

function invalidRequest(errors: ValidationError[]): InvalidRequestError {
  return new InvalidRequestError(toViolations(errors));
}

/** The one validation pipe: unknown fields are dropped, wrong ones are a 400 naming each. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    transform: true,
    forbidUnknownValues: true,
    validationError: { target: true, value: false },
    exceptionFactory: invalidRequest,
  });
}
