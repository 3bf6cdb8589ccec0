import {
  createCipheriv,
  createDecipheriv,
  createSecretKey,
  hkdfSync,
  KeyObject,
  randomBytes,
} from 'node:crypto';

/**
 * Continuation tokens (docs/extensions.md section 1): the position after the last item of a
 * page, bound to the list it came from (scope, filter, window), encrypted and authenticated, so
 * that a client can neither forge a position, nor carry a token over to another list, nor read
 * the position: it may be the name of an item the caller may not see. Opaque to clients: one
 * base64url string.
 */

/** The token is not one this service issued for this list. */
export class InvalidTokenError extends Error {}

/** The first byte of every token: a later format can tell its tokens from these. */
const FORMAT = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/**
 * Positions are padded to a multiple of this many bytes, so that a token's length says nothing
 * of the name it carries: the JSON of the longest name a list is positioned at (258 characters,
 * `_MARK_RG` and a 250-character group name, in quotes) fits in one block.
 */
const BLOCK_BYTES = 260;
const HEADER_BYTES = 1 + IV_BYTES;
/** Without it, a decipher would accept a tag cut short. */
const GCM = { authTagLength: TAG_BYTES };

/**
 * The name a token binds to: everything that decides a list's content (its kind, scope, stream,
 * filter, window), in order.
 */
export const listName = (parts: readonly unknown[]): string => JSON.stringify(parts);

/**
 * The key tokens are encrypted with, derived from the key every instance reads from the
 * database (table `pagination_key`), so that the stored key is never used for two purposes.
 */
export function tokenKey(storedKey: Buffer): KeyObject {
  const derived = hkdfSync('sha256', storedKey, '', 'tributary continuation token aes-256-gcm', 32);
  return createSecretKey(Buffer.from(derived));
}

/** JSON, padded with the spaces JSON allows after a value. */
function padded(position: unknown): Buffer {
  const json = Buffer.from(JSON.stringify(position));
  const length = Math.max(1, Math.ceil(json.length / BLOCK_BYTES)) * BLOCK_BYTES;
  return Buffer.concat([json, Buffer.alloc(length - json.length, ' ')]);
}

/**
 * A token for the position `after` in the list named `list`: AES-256-GCM under a random IV,
 * the list's name as additional authenticated data. (Random 96-bit IVs are safe for 2^32
 * tokens under one key, which no deployment issues.)
 */
export function issueToken<Position>(key: KeyObject, list: string, after: Position): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, GCM).setAAD(Buffer.from(list));
  const sealed = Buffer.concat([cipher.update(padded(after)), cipher.final()]);
  const header = Buffer.from([FORMAT, ...iv]);
  return Buffer.concat([header, sealed, cipher.getAuthTag()]).toString('base64url');
}

/** The position a token carries, if this service issued it for `list`; else InvalidTokenError. */
export function readToken<Position>(key: KeyObject, list: string, token: string): Position {
  const bytes = Buffer.from(token, 'base64url');
  // Base64 has several spellings of the same bytes (and skips what it cannot read): only the
  // one this service writes counts.
  if (bytes.toString('base64url') !== token) throw new InvalidTokenError('malformed token');
  const sealedBytes = bytes.length - HEADER_BYTES - TAG_BYTES;
  if (bytes[0] !== FORMAT || sealedBytes <= 0 || sealedBytes % BLOCK_BYTES !== 0) {
    throw new InvalidTokenError('malformed token');
  }
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(1, HEADER_BYTES), GCM)
    .setAAD(Buffer.from(list))
    .setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
  let plain: Buffer;
  try {
    const sealed = bytes.subarray(HEADER_BYTES, bytes.length - TAG_BYTES);
    plain = Buffer.concat([decipher.update(sealed), decipher.final()]);
  } catch {
    // Either key or list differ, or the token was changed: GCM cannot tell which.
    throw new InvalidTokenError('token was not issued by this service for this list');
  }
  return JSON.parse(plain.toString()) as Position;
}
