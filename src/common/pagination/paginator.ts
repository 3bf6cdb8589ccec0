import { Injectable } from '@nestjs/common';
import { InvalidRequestError } from '../errors/domain-error';
import { ListAnswer, UnreadRows } from './list-answer';
import { InvalidTokenError, issueToken, listName, readToken } from './continuation-token';
import type { PageQueryDto } from './page-query.dto';
import { PaginationKeyRepository } from './pagination-key.repository';

/** A token without `limit` asks for this many items. */
export const DEFAULT_PAGE_LIMIT = 100;

/** A page to read: after which position (none: from the start), and how many rows to fetch. */
export interface Keyset<Position> {
  after?: Position;
  /** `limit + 1`: the extra row only tells whether more follow. */
  take: number;
}

/** A page asked for by a request, for the list it names. */
export interface PageRequest<Position> extends Keyset<Position> {
  list: string;
  limit: number;
}

/** The items of a page and, when more may follow, the token of the next one. */
export interface Page<T> {
  items: T[];
  continuationToken?: string;
}

/**
 * Turns the paging parameters into a keyset to read and the rows read into a page. A list is
 * named by everything that decides its content (its kind, scope, stream, filter, window), so a
 * token only ever continues the list it came from.
 */
@Injectable()
export class Paginator {
  /** The key never changes once the migration made it: read once, on first use. */
  private key?: Promise<Buffer>;

  constructor(private readonly keys: PaginationKeyRepository) {}

  /** The page a request asks for; undefined when it asks for none (the unpaged answer). */
  async request<Position>(
    list: readonly unknown[],
    query: PageQueryDto,
  ): Promise<PageRequest<Position> | undefined> {
    const { limit = DEFAULT_PAGE_LIMIT, continuationToken } = query;
    if (query.limit === undefined && continuationToken === undefined) return undefined;
    const name = listName(list);
    const after =
      continuationToken === undefined
        ? undefined
        : this.position<Position>(await this.signingKey(), name, continuationToken);
    return { list: name, limit, after, take: limit + 1 };
  }

  /** The first `limit` rows and, if there were more, the token after the last of them. */
  async page<T, Position>(
    request: PageRequest<Position> | undefined,
    rows: T[],
    positionOf: (row: T) => Position,
  ): Promise<Page<T>> {
    if (!request || rows.length <= request.limit) return { items: rows };
    const items = rows.slice(0, request.limit);
    const after = positionOf(items[items.length - 1]);
    return { items, continuationToken: issueToken(await this.signingKey(), request.list, after) };
  }

  /**
   * The answer to a list request: the page it asks for, or, when it asks for none, the whole
   * list, read with the same keyset reads a batch at a time while it is sent.
   */
  async answer<Row, Position, Item>(
    key: string,
    request: PageRequest<Position> | undefined,
    rows: UnreadRows<Row, Position>,
    toItem: (row: Row) => Item,
  ): Promise<ListAnswer<Item>> {
    if (!request) return ListAnswer.unread(key, rows, toItem);
    return ListAnswer.of(
      key,
      await this.page(request, await rows.read(request), rows.positionOf),
      toItem,
    );
  }

  private position<Position>(key: Buffer, list: string, token: string): Position {
    try {
      return readToken<Position>(key, list, token);
    } catch (error) {
      if (!(error instanceof InvalidTokenError)) throw error;
      throw InvalidRequestError.of(
        'continuationToken',
        'is not a token this service issued for this list',
      );
    }
  }

  private signingKey(): Promise<Buffer> {
    this.key ??= this.keys.key().catch((error: unknown) => {
      // A failed read (the database away) is retried by the next request.
      this.key = undefined;
      throw error;
    });
    return this.key;
  }
}
