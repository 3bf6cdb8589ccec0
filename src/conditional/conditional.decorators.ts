import { applyDecorators, Type, UseInterceptors } from '@nestjs/common';
import { ApiExtraModels, ApiHeader, ApiResponse, HeadersObject } from '@nestjs/swagger';
import { problemResponse } from '../openapi/api-problem-responses';
import { EntityTagInterceptor } from './entity-tag.interceptor';

const ETAG: HeadersObject = {
  ETag: {
    description:
      'The strong entity tag of the state the body shows (its version): send it back in ' +
      '`If-Match` to change only that state, or in `If-None-Match` to read only a newer one.',
    schema: { type: 'string', example: '"1732364929123456.3"' },
  },
};

/**
 * A route that answers one resource: its handler returns a `Tagged` value, sent as the body
 * with the `ETag` of the state it shows (a 200 or 201 whose body is `type`).
 */
export const TaggedAnswer = (status: 200 | 201, type: Type<unknown>): MethodDecorator =>
  applyDecorators(
    UseInterceptors(EntityTagInterceptor),
    ApiExtraModels(type),
    ApiResponse({ status, type, description: 'The resource, with its entity tag.', headers: ETAG }),
  );

/** A read of one resource: its `ETag`, and 304 when `If-None-Match` names it. */
export const ConditionalRead = (type: Type<unknown>): MethodDecorator =>
  applyDecorators(
    TaggedAnswer(200, type),
    ApiHeader({
      name: 'If-None-Match',
      required: false,
      description:
        'Entity tags (or `*`): when one matches the current state (weak comparison), the ' +
        'answer is 304 without a body. Malformed: 400.',
    }),
    ApiResponse({
      status: 304,
      description: 'Not modified: the client holds the current state. No body.',
      headers: ETAG,
    }),
  );

/**
 * A change that `If-Match` makes conditional: 412 when no tag names the current state. The
 * handler takes the header with `@IfMatch()` and hands it to its service.
 */
export const ConditionalWrite = (): MethodDecorator =>
  applyDecorators(
    ApiHeader({
      name: 'If-Match',
      required: false,
      description:
        'Strong entity tags (or `*`): the change happens only when one names the current ' +
        'state; otherwise 412 `PRECONDITION_FAILED` and nothing changes. Weak tags never ' +
        'match. A missing resource is 404 first. Malformed: 400.',
    }),
    ApiResponse(problemResponse(412)),
  );
