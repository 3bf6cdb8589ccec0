import { Injectable, Logger } from '@nestjs/common';
import { PgCode, sqlState } from '../database/postgres-errors';
import { AppConfig } from '../config/app-config';
import type { Db } from '../database/transaction-host';
import { InjectDb } from '../database/transaction-host';
import { IdempotencyKeyInUseError, IdempotencyKeyReusedError } from './idempotency.errors';
import { IdempotencyRepository, KeyedRequest, StoredAnswer } from './idempotency.repository';

/** What the first request with a key answered: the value to send, and the answer to keep. */
export interface Handled {
  value: unknown;
  answer: StoredAnswer;
}

/** How a keyed request is served: by its handler, or by the answer kept for its key. */
export type Served = { handled: unknown } | { replayed: StoredAnswer };

/** The handler of a keyed request, and what to keep of its failures. */
export interface KeyedHandler {
  handle(): Promise<Handled>;
  /** The answer to keep for a failure, or undefined when a retry must run again. */
  failureAnswer(error: unknown): StoredAnswer | undefined;
}

/** A lock wait cut off by the statement timeout, or refused outright. */
const waitedTooLong = (error: unknown): boolean =>
  sqlState(error) === PgCode.queryCanceled || sqlState(error) === PgCode.lockNotAvailable;

/**
 * Idempotency-Key: the first request with a key runs in a transaction that also holds the key
 * and then its answer, so the change and the answer commit together; retries get that answer.
 * PostgreSQL's unique key decides which request is first, across instances: a retry that
 * arrives while the first still runs waits for it (up to the statement timeout, then 409).
 */
@Injectable()
export class IdempotencyService {
  private readonly logger = new Logger(IdempotencyService.name);

  constructor(
    @InjectDb() private readonly db: Db,
    private readonly records: IdempotencyRepository,
    private readonly config: AppConfig,
  ) {}

  async serve(request: KeyedRequest, handler: KeyedHandler): Promise<Served> {
    let failed: { error: unknown } | undefined;
    try {
      return await this.db.withTransaction(async (): Promise<Served> => {
        const kept = await this.takeOrFind(request);
        if (kept) return { replayed: kept };
        let handled: Handled;
        try {
          handled = await handler.handle();
        } catch (error) {
          failed = { error };
          throw error;
        }
        await this.records.complete(request.principal, request.key, handled.answer);
        return { handled: handled.value };
      });
    } catch (error) {
      // The failure rolled back the change and the key with it: nothing was changed, so its
      // answer is kept in a transaction of its own.
      if (failed?.error === error) await this.keepFailure(request, handler.failureAnswer(error));
      throw error;
    }
  }

  /** Takes the key (undefined), or finds the live answer of the same request. */
  private async takeOrFind(request: KeyedRequest): Promise<StoredAnswer | undefined> {
    let taken: boolean;
    try {
      taken = await this.records.claim(request, this.config.IDEMPOTENCY_TTL_HOURS);
    } catch (error) {
      if (waitedTooLong(error)) throw new IdempotencyKeyInUseError(request.key);
      throw error;
    }
    if (taken) return undefined;
    const kept = await this.records.findLocked(request.principal, request.key);
    // The row is locked from the claim on and committed rows carry their answer: a gap here
    // is not expected, and a retry will find the key settled.
    if (!kept || kept.status === null) throw new IdempotencyKeyInUseError(request.key);
    if (
      kept.method !== request.method ||
      kept.path !== request.path ||
      kept.bodyDigest !== request.bodyDigest
    ) {
      throw new IdempotencyKeyReusedError(request.key);
    }
    return kept;
  }

  private async keepFailure(request: KeyedRequest, answer: StoredAnswer | undefined) {
    if (!answer) return;
    try {
      await this.db.withTransaction(() =>
        this.records.claim(request, this.config.IDEMPOTENCY_TTL_HOURS, answer),
      );
    } catch (error) {
      // The client still gets its answer; a retry then runs again instead of replaying it.
      this.logger.warn(
        `could not keep the ${answer.status} answer of Idempotency-Key ${request.key}: ${String(error)}`,
      );
    }
  }
}
