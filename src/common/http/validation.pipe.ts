import { ValidationError, ValidationPipe } from '@nestjs/common';
import { FieldViolation, InvalidRequestError } from '../errors/domain-error';

const joinPath = (parent: string, property: string): string => {
  if (/^\d+$/.test(property)) return `${parent}[${property}]`;
  return parent ? `${parent}.${property}` : property;
};

/** Flattens class-validator's tree into one violation per invalid field, named by its path. */
export function toViolations(errors: ValidationError[], parent = ''): FieldViolation[] {
  return errors.flatMap((error) => {
    const field = joinPath(parent, error.property) || 'body';
    const own = Object.values(error.constraints ?? {}).map((message) => ({ field, message }));
    return [...own, ...toViolations(error.children ?? [], field)];
  });
}

/** The one validation pipe: unknown fields are dropped, wrong ones are a 400 naming each. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    transform: true,
    forbidUnknownValues: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new InvalidRequestError(toViolations(errors)),
  });
}
