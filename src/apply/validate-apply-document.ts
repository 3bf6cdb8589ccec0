import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { FieldViolation, InvalidRequestError } from '../common/domain-error';
import { overlongLists } from '../common/list-caps';
import { toViolations } from '../http/validation.pipe';
import { toStreamRefs } from '../reader-groups/stream-ref';
import { ApplyDocument, MAX_DOCUMENT_RESOURCES } from './desired-state';
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

/**
 * The fields class-validator refused, each also under the name of its list when it is an element
 * of one (`streams[2]` refuses `streams`): whether a field was refused is then one look-up, not
 * a pass over every violation (a document may have thousands of each).
 */
function refusedFields(violations: readonly FieldViolation[]): Set<string> {
  const refused = new Set<string>();
  for (const { field } of violations) {
    refused.add(field);
    const index = field.endsWith(']') ? field.lastIndexOf('[') : -1;
    if (index > 0 && /^\d+$/.test(field.slice(index + 1, -1))) refused.add(field.slice(0, index));
  }
  return refused;
}

/**
 * How many resources a raw document lists: its scopes, and their streams and reader groups. The
 * count stops once past the limit, so a document of a million scopes costs no more than one at
 * the limit.
 */
function resourceCount(body: Record<string, unknown>): number {
  const scopes = body.scopes;
  if (!Array.isArray(scopes)) return 0;
  let count = scopes.length;
  for (let i = 0; i < scopes.length && count <= MAX_DOCUMENT_RESOURCES; i++) {
    const scope: unknown = scopes[i];
    if (!isObject(scope)) continue;
    const { streams, readerGroups } = scope as Record<string, unknown>;
    if (Array.isArray(streams)) count += streams.length;
    if (Array.isArray(readerGroups)) count += readerGroups.length;
  }
  return count;
}

/**
 * Checks a parsed apply document with the rules of the single operations (the create-stream and
 * create-reader-group request bodies, whose DTOs hold every rule of a stream's configuration,
 * and the meaning of a group's streams), plus uniqueness, the size limits and unknown fields.
 * Every invalid path is named (`scopes[0].streams[3].scalingPolicy.minSegments`). The sizes
 * come first, read from the raw document: a document too large is refused by its size, before
 * any of its elements is read.
 */
export function validateApplyDocument(body: unknown): ApplyDocument {
  if (!isObject(body)) {
    throw InvalidRequestError.of('body', 'must be an object with a list of scopes');
  }
  if (resourceCount(body as Record<string, unknown>) > MAX_DOCUMENT_RESOURCES) {
    throw InvalidRequestError.of(
      'scopes',
      `must list at most ${MAX_DOCUMENT_RESOURCES} resources (scopes, streams and reader groups) in all`,
    );
  }
  const overlong = overlongLists(ApplyDocumentDto, body);
  if (overlong.length > 0) throw new InvalidRequestError(overlong);

  const document = plainToInstance(ApplyDocumentDto, body);
  const violations = toViolations(
    validateSync(document, {
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      validationError: { target: true, value: false },
    }),
  );
  if (!Array.isArray(document.scopes)) throw new InvalidRequestError(violations);

  const refused = refusedFields(violations);
  violations.push(...duplicates(document.scopes, (s) => s.scopeName, 'scopes', 'scopeName'));
  document.scopes.forEach((scope, i) => {
    const path = `scopes[${i}]`;
    if (!isObject(scope) || refused.has(`${path}.scopeName`)) return;
    const streams = Array.isArray(scope.streams) ? scope.streams : [];
    const groups = Array.isArray(scope.readerGroups) ? scope.readerGroups : [];
    violations.push(...duplicates(streams, (s) => s.streamName, `${path}.streams`, 'streamName'));
    violations.push(
      ...duplicates(groups, (g) => g.readerGroupName, `${path}.readerGroups`, 'readerGroupName'),
    );
    groups.forEach((group, k) => {
      const at = `${path}.readerGroups[${k}]`;
      if (!isObject(group) || refused.has(`${at}.streams`)) return;
      underPath(at, violations, () => toStreamRefs(group.streams, scope.scopeName));
    });
  });
  if (violations.length > 0) throw new InvalidRequestError(violations);
  return document;
}
