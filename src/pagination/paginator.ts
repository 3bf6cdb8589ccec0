import { Injectable } from '@nestjs/common';
import type { KeyObject } from 'node:crypto';
import { InvalidRequestError } from '../common/domain-error';
import { AppConfig } from '../config/app-config';
import type { Keyset } from '../database/keyset';
import { ListAnswer, UnreadRows } from './list-answer';
import { InvalidTokenError, issueToken, listName, readToken, tokenKey } from './continuation-token';
import type { PageQueryDto } from './page-query.dto';
import { PaginationKeyRepository } from './pagination-key.repository';

/** A token without `limit` asks for this many items. */
export const DEFAULT_PAGE_LIMIT = 100;

/** A page asked for by a request, for the list it names. */
export interface PageRequest<Position> extends Keyset<Position> {
  list: string;
  limit: number;
}

/** The items of a page and, when more may follow, the token and size of the next one. */
export interface Page<T> {
  items: T[];
  next?: { continuationToken: string; limit: number };
}

/**
 * Turns the paging parameters into a keyset to read and the rows read into a page. A list is
 * named by everything that decides its content (its kind, scope, stream, filter, window), so a
 * token only ever continues the list it came from.
 */
@Injectable()
export class Paginator {
  /** The key never changes once the migration made it: read once, on first use. */
  private key?: Promise<KeyObject>;

  constructor(
    private readonly keys: PaginationKeyRepository,
    private readonly config: AppConfig,
  ) {}

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
        : this.position<Position>(await this.encryptionKey(), name, continuationToken);
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
    const continuationToken = issueToken(await this.encryptionKey(), request.list, after);
    return { items, next: { continuationToken, limit: request.limit } };
  }

  /**
   * The answer to a list request: the page it asks for, or, when it asks for none, the whole
   * list. A whole list that fits in one batch (`LIST_BATCH_SIZE`) is read by one statement, one
   * instant, and sent as a body; a longer one is read again from its start, a batch at a time,
   * in one snapshot while it is sent, so memory does not grow with its length. A list whose
   * unpaged answer is only its first items (`unpaged.first`) reads just those.
   */
  async answer<Row, Position, Item>(
    key: string,
    request: PageRequest<Position> | undefined,
    rows: UnreadRows<Row, Position>,
    toItem: (row: Row) => Item,
    unpaged?: { first: number },
  ): Promise<ListAnswer<Item>> {
    if (request) {
      const page = await this.page(request, await rows.read(request), rows.positionOf);
      return ListAnswer.of(key, page, toItem);
    }
    if (unpaged) {
      return ListAnswer.of(key, { items: await rows.read({ take: unpaged.first }) }, toItem);
    }
    const size = this.config.LIST_BATCH_SIZE;
    const first = await rows.read({ take: size + 1 });
    if (first.length <= size) return ListAnswer.of(key, { items: first }, toItem);
    return ListAnswer.unread(key, rows, toItem);
  }

  private position<Position>(key: KeyObject, list: string, token: string): Position {
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

  private encryptionKey(): Promise<KeyObject> {
    this.key ??= this.keys.key().then(tokenKey, (error: unknown) => {
      // A failed read (the database away) is retried by the next request.
      this.key = undefined;
      throw error;
    });
    return this.key;
  }
}
