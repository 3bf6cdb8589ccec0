import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Response } from 'express';

/**
 * A signal aborted when `res` closes before its answer was sent: the client went away (its
 * connection closed), so what was waiting only to answer it (a long poll) may stop now.
 */
export function clientGoneSignal(res: Response): AbortSignal {
  const gone = new AbortController();
  if (res.closed) gone.abort();
  else
    res.once('close', () => {
      if (!res.writableFinished) gone.abort();
    });
  return gone.signal;
}

/** A handler's parameter: {@link clientGoneSignal} of its response. */
export const ClientGone = createParamDecorator(
  (_data: unknown, context: ExecutionContext): AbortSignal =>
    clientGoneSignal(context.switchToHttp().getResponse<Response>()),
);
