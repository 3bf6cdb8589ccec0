import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { DomainError, MalformedBodyError, UnsupportedMediaTypeError } from '../common/domain-error';
import type { DtoClass } from '../common/list-caps';
import { MAX_BODY_DEPTH, MAX_LIST_ENTRIES } from './body-limits';
import { readBody } from './body-reader';
import { JsonShapeScanner, ShapeProblem } from './json-shape';
import { readYamlBody } from './yaml-body';

const JSON_TYPES = ['application/json', 'application/*+json'];
const YAML_TYPES = ['application/yaml', 'application/x-yaml', 'text/yaml'];

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

const SHAPE_REFUSALS: Record<ShapeProblem, string> = {
  'too-deep': `The request body nests deeper than ${MAX_BODY_DEPTH} levels`,
  'too-many-entries': `The request body has a list of more than ${MAX_LIST_ENTRIES} entries`,
};

/**
 * The JSON of a request's body: read no further than its first list of more than
 * MAX_LIST_ENTRIES entries or its first level deeper than MAX_BODY_DEPTH (found as it arrives,
 * by a scan that ignores what strings hold), so that no part of the service ever reads a body
 * beyond those bounds (docs/behaviour.md section 2).
 */
async function readJson(req: Request, limit: number): Promise<unknown> {
  const scanner = new JsonShapeScanner(MAX_BODY_DEPTH, MAX_LIST_ENTRIES);
  const text = await readBody(req, {
    limit,
    format: 'JSON',
    inspect: (chunk) => {
      const problem = scanner.feed(chunk);
      return problem && new MalformedBodyError(SHAPE_REFUSALS[problem]);
    },
  });
  // An empty body is a common client mistake, taken as an empty object (as Express does).
  if (text === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new MalformedBodyError('The request body is not valid JSON');
  }
}

/** Runs `read` for a request and hands what it answers to the route as its body. */
function bodyFrom(
  req: Request,
  next: NextFunction,
  read: () => Promise<unknown>,
  check: (body: unknown) => DomainError | undefined,
): void {
  read().then(
    (body) => {
      const refusal = check(body);
      if (refusal) return next(refusal);
      req.body = body;
      next();
    },
    (error: unknown) =>
      next(
        error instanceof DomainError
          ? error
          : new MalformedBodyError('The request body could not be read'),
      ),
  );
}

const isMapping = (body: unknown): boolean =>
  typeof body === 'object' && body !== null && !Array.isArray(body);

/**
 * Parses JSON bodies up to `limit` bytes (once inflated, for a compressed one). A body of another
 * media type is refused (415) rather than silently ignored, and every body must be a JSON object,
 * nested no deeper than MAX_BODY_DEPTH, without a list of more than MAX_LIST_ENTRIES entries.
 */
export function jsonBody(limit: number, accepted = 'application/json'): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (hasBody(req) && !req.is(JSON_TYPES)) {
      next(new UnsupportedMediaTypeError(`The request body must be ${accepted}`));
      return;
    }
    if (!req.is(JSON_TYPES)) return next();
    bodyFrom(
      req,
      next,
      () => readJson(req, limit),
      (body) =>
        isMapping(body)
          ? undefined
          : new MalformedBodyError('The request body must be a JSON object'),
    );
  };
}

/**
 * Parses a document of up to `limit` bytes, JSON or YAML (`Content-Type: application/yaml`), for
 * a route that takes whole documents of the DTO `shape`. YAML is read with the core schema, so it
 * yields only what JSON could say, and bounded as JSON is (`readYamlBody`): no deeper, its lists
 * no longer than `shape` allows (refused while read: a YAML reader is slow), and, its aliases
 * expanded, no larger than `limit`, so a small body cannot expand without end.
 */
export function documentBody(limit: number, shape?: DtoClass): RequestHandler {
  const asJson = jsonBody(limit, 'application/json or application/yaml');
  return (req: Request, res: Response, next: NextFunction) => {
    if (!hasBody(req) || !req.is(YAML_TYPES)) {
      asJson(req, res, next);
      return;
    }
    const read = async () =>
      readYamlBody(await readBody(req, { limit, format: 'YAML' }), limit, shape);
    bodyFrom(req, next, read, (body) =>
      isMapping(body)
        ? undefined
        : new MalformedBodyError('The request body must be a YAML mapping'),
    );
  };
}

/**
 * The body gate of every request: 415 for other media types, charsets or content encodings, 413
 * over the limit, 400 for bad JSON or YAML, or a body nested too deep or with a list too long. A
 * compressed body (`Content-Encoding: gzip`, `deflate` or `br`) is inflated on the way, and its
 * limits are those of the inflated body. Under `documentPath` (whole documents, of the DTO
 * `documentShape`) a body may be JSON or YAML and up to `documentLimit` bytes; every other body
 * is JSON of up to `limit` bytes.
 */
export function requestBodies(
  limit: number,
  documentPath: string,
  documentLimit: number,
  documentShape?: DtoClass,
): RequestHandler {
  const json = jsonBody(limit);
  const document = documentBody(documentLimit, documentShape);
  const underDocumentPath = new RegExp(`^${documentPath}(/|$)`, 'i');
  return (req: Request, res: Response, next: NextFunction) => {
    // Most requests (every GET) carry no body at all.
    if (
      req.headers['content-length'] === undefined &&
      req.headers['transfer-encoding'] === undefined
    ) {
      next();
      return;
    }
    (underDocumentPath.test(req.path) ? document : json)(req, res, next);
  };
}
