import { applyDecorators, SetMetadata, Type } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';

/** Marks a list handler whose pages link the next one (see {@link NextPageLinkInterceptor}). */
export const PAGED = Symbol('paged');

/** A paged list answering `type`: documented with its `Link` header. */
export const Paged = (type: Type<unknown>): MethodDecorator =>
  applyDecorators(
    SetMetadata(PAGED, true),
    ApiOkResponse({
      type,
      headers: {
        Link: {
          description:
            'With `limit` or `continuationToken`, when more items may follow: ' +
            '`<URL of the next page>; rel="next"` (RFC 8288), the same path and filters with ' +
            'the next `continuationToken` and the `limit`. Absent on the last page.',
          schema: { type: 'string' },
        },
      },
    }),
  );
