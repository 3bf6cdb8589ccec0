const QUOTE = 0x22;
const COMMA = 0x2c;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/** What a body's shape breaks: nested too deep, or a list with too many entries. */
export type ShapeProblem = 'too-deep' | 'too-many-entries';

/**
 * Reads JSON text (UTF-8 bytes) as it arrives, chunk by chunk, for the first place where it
 * nests objects and arrays deeper than `maxDepth` or holds an array of more than `maxEntries`
 * entries, so that a body is refused where it crosses a bound, before the rest of it is read or
 * any of it parsed. Brackets and commas inside strings do not count (an escaped quote does not
 * end a string); in UTF-8 no byte of a multi-byte character is a quote, a backslash, a comma or
 * a bracket. It judges nothing else: text that is not JSON is `JSON.parse`'s to refuse.
 */
export class JsonShapeScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Per open container: whether it is an array, and the commas it holds (its entries less one). */
  private readonly inArray: Uint8Array;
  private readonly commas: Uint32Array;

  constructor(
    private readonly maxDepth: number,
    private readonly maxEntries: number,
  ) {
    this.inArray = new Uint8Array(maxDepth + 1);
    this.commas = new Uint32Array(maxDepth + 1);
  }

  /** The bound the text read so far crosses, if any (then nothing more need be read). */
  feed(chunk: Uint8Array): ShapeProblem | undefined {
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (byte === BACKSLASH) this.escaped = true;
        else if (byte === QUOTE) this.inString = false;
      } else if (byte === QUOTE) {
        this.inString = true;
      } else if (byte === COMMA) {
        const { depth } = this;
        if (depth > 0 && this.inArray[depth] === 1 && ++this.commas[depth] >= this.maxEntries) {
          return 'too-many-entries';
        }
      } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
        if (++this.depth > this.maxDepth) return 'too-deep';
        this.inArray[this.depth] = byte === OPEN_BRACKET ? 1 : 0;
        this.commas[this.depth] = 0;
      } else if ((byte === CLOSE_BRACE || byte === CLOSE_BRACKET) && this.depth > 0) {
        this.depth--;
      }
    }
    return undefined;
  }
}

/** {@link JsonShapeScanner} over a whole text at once. */
export const jsonShapeProblem = (
  json: Uint8Array,
  maxDepth: number,
  maxEntries: number,
): ShapeProblem | undefined => new JsonShapeScanner(maxDepth, maxEntries).feed(json);
