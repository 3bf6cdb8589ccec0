import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Continuation tokens: the position after the last item of a page, bound to the list it came
 * from (scope, filter, window) and signed, so that a client can neither forge a position nor
 * carry a token over to another list. Opaque to clients: base64url JSON, a dot, a MAC.
 */

/** The token is not one this service issued for this list. */
export class InvalidTokenError extends Error {}

const MAC_BYTES = 16;

/**
 * The name a token binds to: everything that decides a list's content (its kind, scope, stream,
 * filter, window), in order.
 */
export const listName = (parts: readonly unknown[]): string => JSON.stringify(parts);

const mac = (key: Buffer, body: string): Buffer =>
  createHmac('sha256', key).update(body).digest().subarray(0, MAC_BYTES);

/** A token for the position `after` in the list named `list`. */
export function issueToken<Position>(key: Buffer, list: string, after: Position): string {
  const body = Buffer.from(JSON.stringify({ l: list, a: after })).toString('base64url');
  return `${body}.${mac(key, body).toString('base64url')}`;
}

/** The position a token carries, if this service issued it for `list`; else InvalidTokenError. */
export function readToken<Position>(key: Buffer, list: string, token: string): Position {
  const [body, signature, ...rest] = token.split('.');
  if (!body || !signature || rest.length > 0) throw new InvalidTokenError('malformed token');
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(key, body);
  // Base64 has several spellings of the same bytes: only the one this service writes counts.
  const canonical = given.toString('base64url') === signature;
  if (!canonical || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new InvalidTokenError('token was not issued by this service');
  }
  const payload = JSON.parse(Buffer.from(body, 'base64url').toString()) as {
    l: string;
    a: Position;
  };
  if (payload.l !== list) throw new InvalidTokenError('token was issued for another list');
  return payload.a;
}
