import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { FieldViolation, InvalidRequestError } from '../common/domain-error';
import { toViolations } from '../http/validation.pipe';
import { toStreamRefs } from '../reader-groups/stream-ref';
import { ApplyDocument, MAX_DOCUMENT_STREAMS } from './desired-state';
import { ApplyDocumentDto } from './apply-document.dto';

/** Runs a rule of the service that throws InvalidRequestError, naming its fields under `path`. */
function underPath(path: string, violations: FieldViolation[], rule: () => unknown): void {
  try {
    rule();
  } catch (error) {
    if (!(error instanceof InvalidRequestError)) throw error;
    const prefix = (field: string) => (field.startsWith('[') ? path + field : `${path}.${field}`);
    violations.push(...error.violations.map((v) => ({ ...v, field: prefix(v.field) })));
  }
}

/**
 * Whether a list element is an object whose fields can be read. Anything else (`null`, a number,
 * a string) is already named by class-validator ("must be either object or array"), and has no
 * name to compare nor fields to check: a client mistake, a 400, never a 500
 * (docs/behaviour.md section 2).
 */
const isObject = (item: unknown): item is object =>
  typeof item === 'object' && item !== null && !Array.isArray(item);

/** A name listed twice at `path[i].key` is invalid: the document would say two things of it. */
function duplicates<T>(
  items: readonly T[] | undefined,
  name: (item: T) => string,
  path: string,
  key: string,
): FieldViolation[] {
  const first = new Map<string, number>();
  return (items ?? []).flatMap((item, i) => {
    if (!isObject(item)) return [];
    const value = name(item);
    const earlier = first.get(value);
    if (earlier === undefined) {
      first.set(value, i);
      return [];
    }
    return [
      { field: `${path}[${i}].${key}`, message: `duplicates ${path}[${earlier}] (${value})` },
    ];
  });
}

/** Whether class-validator already refused something at or under `path`. */
const refusedUnder = (violations: FieldViolation[], path: string): boolean =>
  violations.some(
    (v) => v.field === path || v.field.startsWith(`${path}.`) || v.field.startsWith(`${path}[`),
  );

/**
 * Checks a parsed apply document with the rules of the single operations (the create-stream and
 * create-reader-group request bodies, whose DTOs hold every rule of a stream's configuration,
 * and the meaning of a group's streams), plus uniqueness and the size limit.
 * Every invalid path is named (`scopes[0].streams[3].scalingPolicy.minSegments`).
 */
export function validateApplyDocument(body: unknown): ApplyDocument {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw InvalidRequestError.of('body', 'must be an object with a list of scopes');
  }
  const document = plainToInstance(ApplyDocumentDto, body);
  const violations = toViolations(
    validateSync(document, {
      whitelist: true,
      forbidUnknownValues: true,
      validationError: { target: true, value: false },
    }),
  );
  if (!Array.isArray(document.scopes)) throw new InvalidRequestError(violations);

  violations.push(...duplicates(document.scopes, (s) => s.scopeName, 'scopes', 'scopeName'));
  let streamCount = 0;
  document.scopes.forEach((scope, i) => {
    const path = `scopes[${i}]`;
    if (!isObject(scope) || refusedUnder(violations, `${path}.scopeName`)) return;
    const streams = Array.isArray(scope.streams) ? scope.streams : [];
    const groups = Array.isArray(scope.readerGroups) ? scope.readerGroups : [];
    streamCount += streams.length;
    violations.push(...duplicates(streams, (s) => s.streamName, `${path}.streams`, 'streamName'));
    violations.push(
      ...duplicates(groups, (g) => g.readerGroupName, `${path}.readerGroups`, 'readerGroupName'),
    );
    groups.forEach((group, k) => {
      const at = `${path}.readerGroups[${k}]`;
      if (!isObject(group) || refusedUnder(violations, `${at}.streams`)) return;
      underPath(at, violations, () => toStreamRefs(group.streams, scope.scopeName));
    });
  });
  if (streamCount > MAX_DOCUMENT_STREAMS) {
    violations.push({
      field: 'scopes',
      message: `must list at most ${MAX_DOCUMENT_STREAMS} streams in all`,
    });
  }
  if (violations.length > 0) throw new InvalidRequestError(violations);
  return document;
}
