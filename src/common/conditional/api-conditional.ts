import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtraModels, ApiHeader, ApiResponse, HeadersObject } from '@nestjs/swagger';
import { problemResponse } from '../http/api-problem-responses';

const ETAG: HeadersObject = {
  ETag: {
    description:
      'The strong entity tag of the state the body shows (its version): send it back in ' +
      '`If-Match` to change only that state, or in `If-None-Match` to read only a newer one.',
    schema: { type: 'string', example: '"1732364929123456.3"' },
  },
};

/** A 200 or 201 whose body is `type`, with the `ETag` of the state it shows. */
export const ApiTaggedResponse = (status: 200 | 201, type: Type<unknown>): MethodDecorator =>
  applyDecorators(
    ApiExtraModels(type),
    ApiResponse({ status, type, description: 'The resource, with its entity tag.', headers: ETAG }),
  );

/** A read that answers its entity tag and 304 when `If-None-Match` names it. */
export const ApiConditionalRead = (type: Type<unknown>): MethodDecorator =>
  applyDecorators(
    ApiHeader({
      name: 'If-None-Match',
      required: false,
      description:
        'Entity tags (or `*`): when one matches the current state (weak comparison), the ' +
        'answer is 304 without a body. Malformed: 400.',
    }),
    ApiTaggedResponse(200, type),
    ApiResponse({
      status: 304,
      description: 'Not modified: the client holds the current state. No body.',
      headers: ETAG,
    }),
  );

/** A change that `If-Match` makes conditional: 412 when no tag names the current state. */
export const ApiConditionalWrite = (): MethodDecorator =>
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
