/*
 * Text made from what a request sent (field paths, names, lists of them) is bounded before it
 * is put in an answer: an error names what is wrong, not all of a hostile body again
 * (docs/behaviour.md section 2, Error bodies).
 */

/** How many entries of a list a message names before saying how many more there are. */
export const MAX_LISTED_IN_TEXT = 10;

/** How long one entry named in a message may be, in bytes. */
const MAX_LISTED_ENTRY_BYTES = 200;

const ELLIPSIS = '…';
const ELLIPSIS_BYTES = 3;

/** The most bytes one UTF-16 unit can take in a JSON string in UTF-8 (`\u001f`). */
const MAX_UNIT_BYTES = 6;

/** What one UTF-16 unit costs inside a JSON string, in UTF-8 bytes (a pair counts 3 + 3 >= 4). */
function unitBytes(code: number): number {
  if (code === 0x22 || code === 0x5c) return 2;
  if (code < 0x20) return MAX_UNIT_BYTES;
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  return 3;
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

/**
 * `text`, cut with an ellipsis where needed so that it takes at most `maxBytes` bytes as a JSON
 * string in UTF-8 (escapes included), never between the two halves of a surrogate pair. Reads
 * at most the part of `text` that is kept.
 */
export function clipText(text: string, maxBytes: number): string {
  if (text.length * MAX_UNIT_BYTES <= maxBytes) return text;
  let bytes = 0;
  let cut = 0;
  for (let i = 0; i < text.length; i++) {
    bytes += unitBytes(text.charCodeAt(i));
    if (bytes > maxBytes) {
      if (cut > 0 && isHighSurrogate(text.charCodeAt(cut - 1))) cut--;
      return text.slice(0, cut) + ELLIPSIS;
    }
    if (bytes <= maxBytes - ELLIPSIS_BYTES) cut = i + 1;
  }
  return text;
}

/**
 * The first {@link MAX_LISTED_IN_TEXT} of `items` as text, each clipped, then how many more
 * there are: `a, b, c and 7 more`.
 */
export function listed<T>(
  items: readonly T[],
  show: (item: T) => string,
  separator = ', ',
): string {
  const shown = items
    .slice(0, MAX_LISTED_IN_TEXT)
    .map((item) => clipText(show(item), MAX_LISTED_ENTRY_BYTES));
  const more = items.length - shown.length;
  return more > 0 ? `${shown.join(separator)} and ${more} more` : shown.join(separator);
}
