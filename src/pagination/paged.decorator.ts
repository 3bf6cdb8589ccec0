import { applyDecorators, Type, UseInterceptors } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import { ListInterceptor } from './list.interceptor';

/**
 * A list route answering `type`: its handler returns a `ListAnswer`, which the route's
 * {@link ListInterceptor} sends (a page, or the whole list streamed), filtered to what the caller
 * may see, with the `Link` of the next page.
 */
export const Paged = (type: Type<unknown>): MethodDecorator =>
  applyDecorators(
    UseInterceptors(ListInterceptor),
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
