import { json } from 'express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import {
  DomainError,
  MalformedBodyError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
} from '../errors/domain-error';

const JSON_TYPES = ['application/json', 'application/*+json'];

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** The body parser's errors carry a `type` such as `entity.parse.failed`. */
function toBodyError(error: unknown, limit: number): DomainError {
  switch ((error as { type?: unknown }).type) {
    case 'entity.too.large':
      return new PayloadTooLargeError(`The request body exceeds ${limit} bytes`);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new UnsupportedMediaTypeError('The request body must be UTF-8 encoded JSON');
    case 'entity.parse.failed':
      return new MalformedBodyError('The request body is not valid JSON');
    default:
      return new MalformedBodyError('The request body could not be read');
  }
}

/**
 * Parses JSON bodies up to `limit` bytes. A body of another media type is refused (415) rather
 * than silently ignored, and every body must be a JSON object.
 */
export function jsonBody(limit: number): RequestHandler {
  const parse = json({ limit, strict: true, type: JSON_TYPES });
  return (req: Request, res: Response, next: NextFunction) => {
    // Most requests (every GET) carry no body at all: nothing to check or parse.
    if (
      req.headers['content-length'] === undefined &&
      req.headers['transfer-encoding'] === undefined
    ) {
      next();
      return;
    }
    if (hasBody(req) && !req.is(JSON_TYPES)) {
      next(new UnsupportedMediaTypeError('The request body must be application/json'));
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
