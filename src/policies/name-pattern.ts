/**
 * A name pattern of a scope policy: `*` stands for any run of characters (none too), `?` for
 * exactly one, every other character for itself; it matches a whole name, case-sensitively. No pattern ever becomes a regular expression: a client's text given to a
 * backtracking engine can cost seconds per name. Here a match costs at most the pattern's
 * length times the name's (a 250-character pattern against a 250-character name: tens of
 * microseconds at worst, `npm run bench:policies`).
 *
 * How: the pattern is cut at its stars into pieces of literal characters and `?`. The first
 * piece must start the name and the last end it; each piece between them is found at its
 * leftmost place after the one before. Leftmost is never wrong, since a star before and after
 * the piece can take whatever a later place would have left, so nothing is ever tried twice.
 */
export class NamePattern {
  /** The pieces between stars, as code points (`ANY_ONE` for `?`); one piece with no star. */
  private readonly pieces: readonly (readonly number[])[];

  constructor(readonly text: string) {
    this.pieces = text
      .split('*')
      .map((piece) => codePoints(piece).map((c) => (c === QUESTION_MARK ? ANY_ONE : c)));
  }

  matches(text: string): boolean {
    const name = codePoints(text);
    const { pieces } = this;
    const first = pieces[0];
    if (pieces.length === 1) return first.length === name.length && pieceAt(first, name, 0);
    const last = pieces[pieces.length - 1];
    const end = name.length - last.length;
    if (first.length > end || !pieceAt(first, name, 0) || !pieceAt(last, name, end)) return false;
    let from = first.length;
    for (let i = 1; i < pieces.length - 1; i++) {
      const at = leftmost(pieces[i], name, from, end);
      if (at < 0) return false;
      from = at + pieces[i].length;
    }
    return true;
  }
}

const QUESTION_MARK = 0x3f;
/** What `?` is in a piece: no code point is negative. */
const ANY_ONE = -1;

/** The characters of a text: `?` stands for one of them, surrogate pairs included. */
function codePoints(text: string): number[] {
  const points: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const point = text.codePointAt(i)!;
    points.push(point);
    if (point > 0xffff) i++;
  }
  return points;
}

/** Whether `piece` matches `name` at `at`. */
function pieceAt(piece: readonly number[], name: readonly number[], at: number): boolean {
  for (let i = 0; i < piece.length; i++) {
    if (piece[i] !== ANY_ONE && piece[i] !== name[at + i]) return false;
  }
  return true;
}

/** The first place in `name[from, end)` where `piece` matches whole, or -1. */
function leftmost(
  piece: readonly number[],
  name: readonly number[],
  from: number,
  end: number,
): number {
  for (let at = from; at + piece.length <= end; at++) {
    if (pieceAt(piece, name, at)) return at;
  }
  return -1;
}

/** Whether any of `patterns` matches `name`. */
export const anyMatches = (patterns: readonly NamePattern[], name: string): boolean =>
  patterns.some((pattern) => pattern.matches(name));
