import { createHash } from 'node:crypto';

/**
 * The most characters an indexed text of the audit trail (a resource, a principal, a client
 * address) keeps whole. PostgreSQL refuses a B-tree index entry of more than 2,704 bytes, and
 * a refused entry is a refused row: a request with a long enough name in its path would leave
 * no trace. A character is at most 4 bytes in UTF-8, so 605 of them (2,420 bytes) fit beside
 * the entry's other columns; every name the API can hold is shorter (the longest resource, a
 * reader group of a 255-character scope, is 531 characters).
 */
export const AUDIT_TEXT_MAX_CHARS = 605;

const DIGEST_CHARS = 64;
/** What a longer text keeps of its start: its shortened form is exactly the maximum long. */
export const AUDIT_TEXT_KEPT_CHARS = AUDIT_TEXT_MAX_CHARS - 1 - DIGEST_CHARS;

/**
 * A text as the audit trail stores and indexes it (docs/extensions.md section 12): whole when
 * it is at most {@link AUDIT_TEXT_MAX_CHARS} characters, else its first
 * {@link AUDIT_TEXT_KEPT_CHARS} characters, `…` and the SHA-256 of the whole (UTF-8) in hex,
 * which tells apart texts that start alike without keeping what an attacker chose to send. A
 * NUL, which PostgreSQL's text cannot hold, is stored as U+FFFD. Shortening a shortened text
 * changes nothing, so a filter may be given either form.
 */
export function auditText(value: string): string {
  const text = value.includes('\0') ? value.replaceAll('\0', '\uFFFD') : value;
  // UTF-16 units are never fewer than characters: most texts end here.
  if (text.length <= AUDIT_TEXT_MAX_CHARS) return text;
  let characters = 0;
  let keptUnits = 0;
  for (const character of text) {
    characters++;
    if (characters <= AUDIT_TEXT_KEPT_CHARS) keptUnits += character.length;
    else if (characters > AUDIT_TEXT_MAX_CHARS) break;
  }
  if (characters <= AUDIT_TEXT_MAX_CHARS) return text;
  const digest = createHash('sha256').update(value, 'utf8').digest('hex');
  return `${text.slice(0, keptUnits)}…${digest}`;
}
