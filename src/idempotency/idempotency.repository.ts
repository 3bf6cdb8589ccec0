import { Injectable } from '@nestjs/common';
import type { Db } from '../database/transaction-host';
import { deleteOldest } from '../database/delete-oldest';
import { InjectDb } from '../database/transaction-host';
import { IdempotencyRecordEntity } from './idempotency-record.entity';

/** What makes a request a retry of another: its key and principal, and what it asked. */
export interface KeyedRequest {
  principal: string;
  key: string;
  method: string;
  /** The path with its query string. */
  path: string;
  bodyDigest: string;
}

/** An answer as kept: a success's JSON body, or a problem document's fields. */
export interface StoredAnswer {
  status: number;
  /** JSON text, null for an empty body. */
  body: string | null;
  headers: Record<string, string>;
}

/** The request a key was first used for, and its answer. */
export interface StoredRecord extends StoredAnswer {
  method: string;
  path: string;
  bodyDigest: string;
}

/** Every statement of the idempotency_records table; each joins the current transaction. */
@Injectable()
export class IdempotencyRepository {
  constructor(@InjectDb() private readonly db: Db) {}

  private get records() {
    return this.db.tx.getRepository(IdempotencyRecordEntity);
  }

  /**
   * Takes the key for this request, with its answer when it is already known, unless a live
   * entry holds it; an entry older than the TTL is taken over. While another transaction holds
   * an uncommitted entry of the key, this waits for it to end (the unique key decides, across
   * instances). Taken or not, the row stays locked until this transaction ends.
   *
   * @returns whether the key was taken; when not, {@link findLocked} reads the live entry.
   */
  async claim(
    request: KeyedRequest,
    ttlHours: number,
    answer: StoredAnswer | null = null,
  ): Promise<boolean> {
    const claimed = await this.records
      .createQueryBuilder('kept')
      .insert()
      .values({
        ...request,
        status: answer?.status ?? null,
        body: answer?.body ?? null,
        headers: answer?.headers ?? {},
      })
      .orUpdate(
        ['method', 'path', 'body_digest', 'created_at', 'status', 'body', 'headers'],
        ['principal', 'key'],
        {
          overwriteCondition: {
            where: 'kept.created_at < now() - make_interval(hours => :ttlHours)',
            parameters: { ttlHours },
          },
        },
      )
      .returning('key')
      .updateEntity(false)
      .execute();
    return (claimed.raw as unknown[]).length > 0;
  }

  /** The entry {@link claim} found live (and locked). */
  async findLocked(principal: string, key: string): Promise<StoredRecord | undefined> {
    const record = await this.records.findOneBy({ principal, key });
    if (!record) return undefined;
    const { method, path, bodyDigest, status, body, headers } = record;
    return { method, path, bodyDigest, status: status!, body, headers };
  }

  /** Writes the answer of the request that took the key, in that request's transaction. */
  async complete(principal: string, key: string, answer: StoredAnswer): Promise<void> {
    await this.records.update({ principal, key }, answer);
  }

  /**
   * Deletes up to `limit` expired entries, oldest first; entries in use by a running request
   * are left for a later pass, so several instances purge side by side without waiting.
   *
   * @returns how many were deleted.
   */
  deleteExpired(ttlHours: number, limit: number): Promise<number> {
    return deleteOldest(this.records, (old) =>
      old
        .where('old.createdAt < now() - make_interval(hours => :ttlHours)', { ttlHours })
        .orderBy('old.createdAt')
        .limit(limit),
    );
  }
}
