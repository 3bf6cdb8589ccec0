import { json, text } from 'express';
import { parse as parseYaml } from 'yaml';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import {
  DomainError,
  MalformedBodyError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
} from '../common/domain-error';

const JSON_TYPES = ['application/json', 'application/*+json'];
const YAML_TYPES = ['application/yaml', 'application/x-yaml', 'text/yaml'];

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** The body parser's errors carry a `type` such as `entity.parse.failed`. */
function toBodyError(error: unknown, limit: number, format = 'JSON'): DomainError {
  switch ((error as { type?: unknown }).type) {
    case 'entity.too.large':
      return new PayloadTooLargeError(`The request body exceeds ${limit} bytes`);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new UnsupportedMediaTypeError(`The request body must be UTF-8 encoded ${format}`);
    case 'entity.parse.failed':
      return new MalformedBodyError(`The request body is not valid ${format}`);
    default:
      return new MalformedBodyError('The request body could not be read');
  }
}

/**
 * Parses JSON bodies up to `limit` bytes. A body of another media type is refused (415) rather
 * than silently ignored, and every body must be a JSON object.
 */
export function jsonBody(limit: number, accepted = 'application/json'): RequestHandler {
  const parse = json({ limit, strict: true, type: JSON_TYPES });
  return (req: Request, res: Response, next: NextFunction) => {
    if (hasBody(req) && !req.is(JSON_TYPES)) {
      next(new UnsupportedMediaTypeError(`The request body must be ${accepted}`));
      return;
    }
    parse(req, res, (error?: unknown) => {
      if (error) return next(toBodyError(error, limit));
      if (Array.isArray(req.body)) {
        return next(new MalformedBodyError('The request body must be a JSON object'));
      }
      next();
    });
  };
}

/**
 * Parses a document of up to `limit` bytes, JSON or YAML (`Content-Type: application/yaml`), for
 * a route that takes whole documents. YAML is read with the core schema, so it yields only what
 * JSON could say, and with aliases bounded, so a small body cannot expand without end.
 */
export function documentBody(limit: number): RequestHandler {
  const asJson = jsonBody(limit, 'application/json or application/yaml');
  const readText = text({ limit, type: YAML_TYPES, defaultCharset: 'utf-8' });
  return (req: Request, res: Response, next: NextFunction) => {
    if (!hasBody(req) || !req.is(YAML_TYPES)) {
      asJson(req, res, next);
      return;
    }
    readText(req, res, (error?: unknown) => {
      if (error) return next(toBodyError(error, limit, 'YAML'));
      let document: unknown;
      try {
        document = parseYaml(req.body as string, { maxAliasCount: 100, uniqueKeys: true });
      } catch {
        return next(new MalformedBodyError('The request body is not valid YAML'));
      }
      if (typeof document !== 'object' || document === null || Array.isArray(document)) {
        return next(new MalformedBodyError('The request body must be a YAML mapping'));
      }
      req.body = document;
      next();
    });
  };
}

/**
 * The body gate of every request: 415 for other media types, 413 over the limit, 400 for bad
 * JSON or YAML. Under `documentPath` (whole documents) a body may be JSON or YAML and up to
 * `documentLimit` bytes; every other body is JSON of up to `limit` bytes.
 */
export function requestBodies(
  limit: number,
  documentPath: string,
  documentLimit: number,
): RequestHandler {
  const json = jsonBody(limit);
  const document = documentBody(documentLimit);
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
