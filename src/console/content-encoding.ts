import { weightedElements } from '../http/header-list';

/** The encodings the console's files are stored in besides their own bytes, best first. */
export const STORED_ENCODINGS = ['br', 'gzip'] as const;
export type StoredEncoding = (typeof STORED_ENCODINGS)[number];

/** The `q` of each coding an `Accept-Encoding` header names (RFC 9110 section 12.5.3). */
function weights(acceptEncoding: string): Map<string, number> {
  return new Map(weightedElements(acceptEncoding).map(({ value, weight }) => [value, weight]));
}

/**
 * The stored encoding to send for an `Accept-Encoding` header, or undefined for the file's own
 * bytes: brotli before gzip, each only when the client accepts it (by name or by `*`) with a
 * weight above 0.
 */
export function chooseEncoding(
  acceptEncoding: string | undefined,
  available: readonly StoredEncoding[],
): StoredEncoding | undefined {
  if (!acceptEncoding) return undefined;
  const accepted = weights(acceptEncoding);
  return STORED_ENCODINGS.find(
    (encoding) =>
      available.includes(encoding) && (accepted.get(encoding) ?? accepted.get('*') ?? 0) > 0,
  );
}
