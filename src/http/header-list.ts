/**
 * Comma-separated header lists (RFC 9110 section 5.6.1) read in one pass over the header, with
 * no regular expression: a header is text a client chose, as long as the server's header size
 * lets it be, and a pattern that backtracks (optional spaces on both sides of a comma, over a
 * long run of spaces) costs the event loop the square of that length. Every list header the
 * service reads (entity tags, `Accept`, `Accept-Encoding`) goes through here.
 */

const SPACE = 0x20;
const TAB = 0x09;
const QUOTE = 0x22;

const isOws = (code: number): boolean => code === SPACE || code === TAB;

/** `text` from `start` to `end` without the spaces and tabs at either end. */
function trimmed(text: string, start: number, end: number): string {
  while (start < end && isOws(text.charCodeAt(start))) start++;
  while (end > start && isOws(text.charCodeAt(end - 1))) end--;
  return text.slice(start, end);
}

/**
 * The parts of `text` between `separator`s outside double quotes, trimmed, empty ones skipped
 * (`a, , b` is two elements, as the list syntax says). A quote opens or closes a quoted string
 * wherever it is: entity tags may hold a backslash, so it escapes nothing.
 */
export function splitOutsideQuotes(text: string, separator: ',' | ';'): string[] {
  const sep = separator.charCodeAt(0);
  const parts: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : sep;
    if (code === QUOTE) quoted = !quoted;
    else if (code === sep && (!quoted || i === text.length)) {
      const part = trimmed(text, start, i);
      if (part.length > 0) parts.push(part);
      start = i + 1;
    }
  }
  return parts;
}

/** The elements of a list header; a header sent twice is one list. */
export function listElements(header: string | readonly string[] | undefined): string[] {
  if (header === undefined) return [];
  return splitOutsideQuotes(typeof header === 'string' ? header : header.join(','), ',');
}

/** An element of `Accept` or `Accept-Encoding`: what it names, lowercased, and its weight. */
export interface WeightedElement {
  value: string;
  /** Its `q` (0 to 1), 1 when absent, 0 when it is not a number (what it names is refused). */
  weight: number;
}

/** The `q` of an element's parameters (RFC 9110 section 12.4.2). */
function weightOf(parameters: readonly string[]): number {
  const q = parameters.find((p) => p.length >= 2 && p[1] === '=' && (p[0] === 'q' || p[0] === 'Q'));
  if (q === undefined) return 1;
  const weight = Number(q.slice(2).trim());
  return Number.isFinite(weight) ? weight : 0;
}

/** The elements of `Accept` or `Accept-Encoding`, each with its weight. */
export function weightedElements(
  header: string | readonly string[] | undefined,
): WeightedElement[] {
  return listElements(header).map((element) => {
    // What an element names is a token (no quote); its parameters may be quoted strings.
    const semicolon = element.indexOf(';');
    if (semicolon < 0) return { value: element.toLowerCase(), weight: 1 };
    return {
      value: trimmed(element, 0, semicolon).toLowerCase(),
      weight: weightOf(splitOutsideQuotes(element.slice(semicolon + 1), ';')),
    };
  });
}
