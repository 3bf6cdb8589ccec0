import type { Keyset } from '../database/keyset';
import type { Page } from './paginator';

/** The items of a list's text taken at once: some tens of KB of JSON for the usual items. */
const ITEMS_PER_PIECE = 64;

/** `,` in UTF-8. */
const COMMA = 0x2c;

/** Reads the rows of a list after a position, at most `take` of them, in order. */
export type KeysetRead<Row, Position> = (keyset: Keyset<Position>) => Promise<Row[]>;

/** The rows of a list still to be read: read in batches while the answer is being sent. */
export interface UnreadRows<Row, Position> {
  read: KeysetRead<Row, Position>;
  positionOf: (row: Row) => Position;
  /**
   * The whole list from its start, `size` rows at a time, where its source reads it in fewer
   * statements than a keyset read per batch (`portal-batches.ts`).
   */
  batches?: (size: number) => AsyncIterable<Row[]>;
}

/** Where an answer's items come from, whatever the rows they are made of. */
type ItemSource<Item> =
  { read: true; items: Item[] } | { read: false; batches(size: number): AsyncIterable<Item[]> };

/**
 * A list's answer, `{"<key>":[...items]}` with `continuationToken` when more may follow: the
 * same bytes `JSON.stringify` makes of that object. Its rows are either read already (a page),
 * or read while it is sent, a batch at a time (a whole list, which may be of any length), so
 * that no answer is ever held in memory whole. The list's interceptor sends it
 * (`ListAnswerInterceptor`).
 */
export class ListAnswer<Item = unknown> {
  private constructor(
    readonly key: string,
    private readonly source: ItemSource<Item>,
    /** The next page, when more items may follow: its token, and the size this page was asked. */
    readonly next?: Page<unknown>['next'],
    private readonly keep: (item: Item) => boolean = () => true,
  ) {}

  /** A page that has been read. */
  static of<Row, Item>(key: string, page: Page<Row>, toItem: (row: Row) => Item): ListAnswer<Item> {
    return new ListAnswer(key, { read: true, items: page.items.map(toItem) }, page.next);
  }

  /** A whole list, read from its start by `read` while it is sent. */
  static unread<Row, Position, Item>(
    key: string,
    rows: UnreadRows<Row, Position>,
    toItem: (row: Row) => Item,
  ): ListAnswer<Item> {
    return new ListAnswer<Item>(key, {
      read: false,
      async *batches(size) {
        for await (const batch of rows.batches?.(size) ?? batchesOf(rows, size)) {
          yield batch.map(toItem);
        }
      },
    });
  }

  /** True when rows remain to be read (in one snapshot of the database: see the interceptor). */
  get isUnread(): boolean {
    return !this.source.read;
  }

  /** The same answer without the items `keep` refuses. */
  only(keep: (item: Item) => boolean): ListAnswer<Item> {
    const both = (item: Item) => this.keep(item) && keep(item);
    return new ListAnswer(this.key, this.source, this.next, both);
  }

  /** The answer as a plain object, for a page that has been read (unread rows: an error). */
  toBody(): Record<string, unknown> {
    if (!this.source.read) throw new Error('an unread list has no body in memory');
    const body: Record<string, unknown> = { [this.key]: this.source.items.filter(this.keep) };
    if (this.next) body.continuationToken = this.next.continuationToken;
    return body;
  }

  /**
   * The answer's JSON text, as UTF-8, in pieces of a few items each; the first is yielded only
   * once the first batch has been read, so a failure there is still the request's error.
   */
  async *json(batchSize: number): AsyncGenerator<Buffer> {
    let head: string | undefined = `{${JSON.stringify(this.key)}:`;
    const batches = this.source.read ? [this.source.items] : this.source.batches(batchSize);
    for await (const batch of batches) {
      const items = batch.filter(this.keep);
      // Pieces of a few items each: a text of a whole batch would be large enough for V8 to
      // keep it outside the young generation, where garbage lingers and memory grows.
      for (let at = 0; at < items.length; at += ITEMS_PER_PIECE) {
        // `[item,...,item]` with its `]` left out, and its `[` made a `,` after the first: the
        // text's only copy is the bytes sent (BENCHMARKS.md, "The data layer's cost").
        const array = Buffer.from(JSON.stringify(items.slice(at, at + ITEMS_PER_PIECE)));
        const piece = array.subarray(0, -1);
        if (head === undefined) {
          piece[0] = COMMA;
          yield piece;
        } else {
          yield Buffer.concat([Buffer.from(head), piece]);
          head = undefined;
        }
      }
    }
    const token = this.next
      ? `,"continuationToken":${JSON.stringify(this.next.continuationToken)}`
      : '';
    yield Buffer.from(`${head === undefined ? '' : `${head}[`}]${token}}`);
  }
}

/** A list's rows, a batch at a time: keyset reads of `size + 1`, the extra row telling more follow. */
async function* batchesOf<Row, Position>(
  { read, positionOf }: UnreadRows<Row, Position>,
  size: number,
): AsyncGenerator<Row[]> {
  let after: Position | undefined;
  for (;;) {
    const rows = await read({ after, take: size + 1 });
    if (rows.length <= size) {
      yield rows;
      return;
    }
    const batch = rows.slice(0, size);
    yield batch;
    after = positionOf(batch[size - 1]);
  }
}
