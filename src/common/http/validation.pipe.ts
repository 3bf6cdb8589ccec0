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

/**
 * A request DTO with rules of meaning beyond its shape (its service applies them). When its
 * shape is wrong, the pipe reports those rules' violations of the other fields too, so one
 * answer names every problem.
 */
export interface HasMeaningRules {
  meaningViolations(): FieldViolation[];
}

const hasMeaningRules = (target: unknown): target is HasMeaningRules =>
  typeof (target as Partial<HasMeaningRules> | undefined)?.meaningViolations === 'function';

/** `field` is `shaped` or inside it. */
const within = (field: string, shaped: string): boolean =>
  field === shaped || field.startsWith(`${shaped}.`) || field.startsWith(`${shaped}[`);

function invalidRequest(errors: ValidationError[]): InvalidRequestError {
  const shape = toViolations(errors);
  const target: unknown = errors[0]?.target;
  const meaning = hasMeaningRules(target)
    ? target.meaningViolations().filter((v) => !shape.some((s) => within(v.field, s.field)))
    : [];
  return new InvalidRequestError([...shape, ...meaning]);
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
