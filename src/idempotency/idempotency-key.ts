import { createHash } from 'node:crypto';
import { InvalidRequestError } from '../common/domain-error';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

/** 1 to 255 visible ASCII characters: no spaces, controls or anything beyond ASCII. */
const VALID_KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * The key a request carries, or undefined when it carries none. A header given twice arrives
 * joined with ", " and is therefore invalid, as is an empty one.
 */
export function idempotencyKeyOf(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? header.join(', ') : header;
  if (!VALID_KEY.test(key)) {
    throw InvalidRequestError.of(
      IDEMPOTENCY_KEY_HEADER,
      `${IDEMPOTENCY_KEY_HEADER} must be 1 to 255 visible ASCII characters`,
    );
  }
  return key;
}

/** JSON with every object's keys sorted: the same document however its fields were ordered. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const fields = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${fields.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What tells a retry from another request under the same key: a digest of the parsed body. */
export function bodyDigest(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('base64url');
}

/**
 * Whether an answer of this status is kept for retries: successes and the client's mistakes
 * are, but not a refusal that other credentials or a later moment may turn (401, 403, 429), nor
 * a server failure (retrying it is the point).
 */
export function isReplayableStatus(status: number): boolean {
  if (status >= 200 && status < 300) return true;
  return status >= 400 && status < 500 && ![401, 403, 429].includes(status);
}
