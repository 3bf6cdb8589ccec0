import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

const PARAMS = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;

/**
 * `scrypt$N$r$p$salt$hash` (base64): no `:` inside, since the accounts file separates its
 * fields with colons.
 */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  const { N, r, p } = PARAMS;
  return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
}

export class InvalidPasswordHashError extends Error {}

interface ParsedHash {
  params: typeof PARAMS;
  salt: Buffer;
  key: Buffer;
}

export function parsePasswordHash(stored: string): ParsedHash {
  const [scheme, N, r, p, salt, key] = stored.split('$');
  const params = { N: Number(N), r: Number(r), p: Number(p) };
  if (
    scheme !== 'scrypt' ||
    !Object.values(params).every((value) => Number.isSafeInteger(value) && value > 0) ||
    !salt ||
    !key
  ) {
    throw new InvalidPasswordHashError('not an scrypt$N$r$p$salt$hash password hash');
  }
  return { params, salt: Buffer.from(salt, 'base64'), key: Buffer.from(key, 'base64') };
}

function derive(password: string, salt: Buffer, params: typeof PARAMS): Promise<Buffer> {
  return scryptAsync(password, salt, KEY_LENGTH, {
    ...params,
    maxmem: 256 * params.N * params.r + 1024 * 1024,
  });
}

/** Whether `password` is the one `stored` was made from; the comparison takes constant time. */
export async function verifyPassword(password: string, stored: ParsedHash): Promise<boolean> {
  const key = await derive(password, stored.salt, stored.params);
  return key.length === stored.key.length && timingSafeEqual(key, stored.key);
}

/** A digest of a password already verified, to recognise it again without running scrypt. */
export const passwordDigest = (password: string): Buffer =>
  createHash('sha256').update(password).digest();
