import { Injectable } from '@nestjs/common';
import type { Db } from '../database/transaction-host';
import { InjectDb } from '../database/transaction-host';

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

interface RecordRow {
  method: string;
  path: string;
  body_digest: string;
  status: number;
  body: string | null;
  headers: Record<string, string>;
}

/** Every statement of the idempotency_records table; each joins the current transaction. */
@Injectable()
export class IdempotencyRepository {
  constructor(@InjectDb() private readonly db: Db) {}

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
    const rows = await this.db.tx.query<unknown[]>(
      `INSERT INTO idempotency_records AS kept
              (principal, key, method, path, body_digest, status, body, headers)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (principal, key) DO UPDATE
          SET method = EXCLUDED.method, path = EXCLUDED.path,
              body_digest = EXCLUDED.body_digest, created_at = now(),
              status = EXCLUDED.status, body = EXCLUDED.body, headers = EXCLUDED.headers
        WHERE kept.created_at < now() - make_interval(hours => $9)
       RETURNING 1`,
      [
        request.principal,
        request.key,
        request.method,
        request.path,
        request.bodyDigest,
        answer?.status ?? null,
        answer?.body ?? null,
        JSON.stringify(answer?.headers ?? {}),
        ttlHours,
      ],
    );
    return rows.length > 0;
  }

  /** The entry {@link claim} found live (and locked). */
  async findLocked(principal: string, key: string): Promise<StoredRecord | undefined> {
    const [row] = await this.db.tx.query<RecordRow[]>(
      `SELECT method, path, body_digest, status, body, headers
         FROM idempotency_records WHERE principal = $1 AND key = $2`,
      [principal, key],
    );
    if (!row) return undefined;
    return {
      method: row.method,
      path: row.path,
      bodyDigest: row.body_digest,
      status: row.status,
      body: row.body,
      headers: row.headers,
    };
  }

  /** Writes the answer of the request that took the key, in that request's transaction. */
  async complete(principal: string, key: string, answer: StoredAnswer): Promise<void> {
    await this.db.tx.query(
      `UPDATE idempotency_records SET status = $3, body = $4, headers = $5
        WHERE principal = $1 AND key = $2`,
      [principal, key, answer.status, answer.body, JSON.stringify(answer.headers)],
    );
  }

  /**
   * Deletes up to `limit` expired entries, oldest first; entries in use by a running request
   * are left for a later pass, so several instances purge side by side without waiting.
   *
   * @returns how many were deleted.
   */
  async deleteExpired(ttlHours: number, limit: number): Promise<number> {
    const [{ deleted }] = await this.db.tx.query<Array<{ deleted: number }>>(
      `WITH gone AS (
         DELETE FROM idempotency_records
          WHERE ctid IN (SELECT ctid FROM idempotency_records
                          WHERE created_at < now() - make_interval(hours => $1)
                          ORDER BY created_at
                          LIMIT $2
                          FOR UPDATE SKIP LOCKED)
         RETURNING 1)
       SELECT count(*)::int AS deleted FROM gone`,
      [ttlHours, limit],
    );
    return deleted;
  }
}
