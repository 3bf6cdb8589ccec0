import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request, Response } from 'express';
import { InvalidRequestError } from '../errors/domain-error';
import { MalformedConditionError, notModified, parseCondition, TagCondition } from './entity-tag';
import type { Tagged } from './resource-version';

/**
 * Reads a conditional header. A malformed one is a 400 naming the header: RFC 9110 leaves its
 * handling open, and a client that sent it meant a condition it could not express; refusing it
 * tells that client, where ignoring it would change things the client meant to protect.
 */
function conditionOf(header: 'If-Match' | 'If-None-Match', req: Request): TagCondition | undefined {
  try {
    return parseCondition(req.headers[header.toLowerCase()]);
  } catch (error) {
    if (!(error instanceof MalformedConditionError)) throw error;
    throw InvalidRequestError.of(header, `${header} must be * or a list of entity tags`);
  }
}

/** A handler's parameter: the request's `If-Match`, parsed (undefined when absent). */
export const IfMatch = createParamDecorator((_data: unknown, context: ExecutionContext) =>
  conditionOf('If-Match', context.switchToHttp().getRequest<Request>()),
);

/** A handler's parameter: the request's `If-None-Match`, parsed (undefined when absent). */
export const IfNoneMatch = createParamDecorator((_data: unknown, context: ExecutionContext) =>
  conditionOf('If-None-Match', context.switchToHttp().getRequest<Request>()),
);

/** Sends the entity tag with the body (a 200 or 201). */
export function withEntityTag<T>(res: Response, { body, etag }: Tagged<T>): T {
  res.setHeader('ETag', etag);
  return body;
}

/**
 * A conditional read: the body with its entity tag, or 304 with the tag alone when the
 * client's copy (`If-None-Match`, weak comparison) is current.
 */
export function unlessNotModified<T>(
  res: Response,
  condition: TagCondition | undefined,
  tagged: Tagged<T>,
): T {
  const body = withEntityTag(res, tagged);
  if (!notModified(condition, tagged.etag)) return body;
  res.status(304);
  // Nest sends what the handler returns; with nothing, Express sends the bare 304.
  return undefined as T;
}
