import { ArgumentMetadata, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import type { ValidatorOptions } from 'class-validator';
import { DomainError, FieldViolation, InvalidRequestError } from '../common/domain-error';
import { overlongLists } from '../common/list-caps';
import { canExist } from '../common/names';
import { elementViolations, refusesUnknownParameters, REQUIRED_RULE } from '../common/validators';

const joinPath = (parent: string, property: string): string => {
  if (/^\d+$/.test(property)) return `${parent}[${property}]`;
  return parent ? `${parent}.${property}` : property;
};

/**
 * Flattens class-validator's tree into one violation per broken rule, each named by the path of
 * its field. A missing required value says only that; an element rule names each element.
 */
export function toViolations(errors: ValidationError[], parent = ''): FieldViolation[] {
  // Two rules may say the same of one field (a number that is not finite is neither a number
  // nor within its range): each problem is named once.
  const seen = new Set<string>();
  return allViolations(errors, parent).filter(({ field, message }) => {
    const key = JSON.stringify([field, message]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function allViolations(errors: ValidationError[], parent: string): FieldViolation[] {
  return errors.flatMap((error) => {
    const field = joinPath(parent, error.property) || 'body';
    // The fields read inside a value that should have been a list say nothing more of it.
    const children = error.constraints?.isArray === undefined ? (error.children ?? []) : [];
    return [...ownViolations(error, field), ...allViolations(children, field)];
  });
}

function ownViolations(error: ValidationError, field: string): FieldViolation[] {
  const constraints = error.constraints ?? {};
  const required = constraints[REQUIRED_RULE];
  if (required !== undefined) return [{ field, message: required }];
  if (constraints.whitelistValidation !== undefined) {
    // Unknown query parameters (of the DTOs that refuse them) and unknown fields of a document.
    const message = refusesUnknownParameters(error.target ?? {})
      ? `${field} is not a parameter of this operation`
      : 'is not a known field';
    return [{ field, message }];
  }
  // A value that is not a list is only that: not also too long, nor empty.
  const notAList = constraints.isArray;
  if (notAList !== undefined) return [{ field, message: notAList }];
  // A value that is not an integer breaks its bounds too (`limit=-1` is no number to class-
  // validator): that it is not one is the whole story, not "must not be greater than 1000".
  if (constraints.isInt !== undefined) return [{ field, message: constraints.isInt }];
  const value: unknown = (error.target as Record<string, unknown> | undefined)?.[error.property];
  return Object.entries(constraints).flatMap(
    ([rule, message]) => elementViolations(rule, value, field) ?? [{ field, message }],
  );
}

/** What "not found" means for each name a path can hold. */
const NOT_FOUND_CODE_OF_PARAM: Readonly<Record<string, string>> = {
  scopeName: 'SCOPE_NOT_FOUND',
  streamName: 'STREAM_NOT_FOUND',
  readerGroupName: 'READER_GROUP_NOT_FOUND',
  readerId: 'READER_NOT_ONLINE',
};

/** A name in the path that no resource can have. */
export class NameNotFoundError extends DomainError {
  readonly kind = 'not-found';

  constructor(
    readonly code: string,
    param: string,
  ) {
    super(`No resource has that ${param}`);
  }
}

/**
 * The one pipe of every route. Bodies and queries are validated into their DTOs (unknown fields
 * dropped, a 400 naming each invalid field; a list longer than its maximum is refused first). Names in the path are not validated (an invalid one
 * is simply not found), but one that no resource can have (a NUL, an impossible length) is a 404
 * here, before any query is made.
 */
@Injectable()
export class RequestValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      transform: true,
      forbidUnknownValues: true,
      validationError: { target: true, value: false },
      exceptionFactory: (errors) => new InvalidRequestError(toViolations(errors)),
    });
  }

  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const code =
      metadata.type === 'param' ? NOT_FOUND_CODE_OF_PARAM[metadata.data ?? ''] : undefined;
    if (code && typeof value === 'string' && !canExist(value)) {
      throw new NameNotFoundError(code, metadata.data!);
    }
    // A list longer than its maximum is refused by its length, before anything reads its elements.
    if (metadata.type === 'body' && metadata.metatype) {
      const overlong = overlongLists(metadata.metatype, value);
      if (overlong.length > 0) throw new InvalidRequestError(overlong);
    }
    return super.transform(value, metadata) as Promise<unknown>;
  }

  protected override validate(
    object: object,
    options?: ValidatorOptions,
  ): ReturnType<ValidationPipe['validate']> {
    return super.validate(
      object,
      refusesUnknownParameters(object) ? { ...options, forbidNonWhitelisted: true } : options,
    );
  }
}
