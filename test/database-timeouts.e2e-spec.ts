import { TransactionHost } from '@nestjs-cls/transactional';
import { Client } from 'pg';
import { leadsThroughPooler } from '../src/database/connection-pooler';
import { queryOnConnection } from '../src/database/on-connection';
import type { Db } from '../src/database/transaction-host';
import { TEST_SERVER_ENV } from './setup/test-server';
import { eventually } from './support/eventually';
import { createScope } from './support/factories';
import { THROUGH_POOLER_ENV } from './support/pgbouncer';
import { TcpProxy } from './support/tcp-proxy';
import { startTestApp, TestApp } from './support/test-app';
import {
  insertStreams,
  listeningPort,
  openSnapshots,
  readRaw,
  requestUnread,
} from './support/unread-answer';

const STATEMENT_TIMEOUT_MS = 1000;

/**
 * DB_STATEMENT_TIMEOUT_MS bounds every statement, and twice that every transaction left
 * waiting, however the service reaches PostgreSQL: straight (`npm test`), or through a
 * transaction pooler that keeps no session settings (`npm run test:pooler` runs this file
 * through PgBouncer).
 */
describe('Time limits of statements and transactions (e2e)', () => {
  let t: TestApp;
  let db: Db;

  beforeAll(async () => {
    t = await startTestApp({
      DB_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
      DB_POOL_SIZE: '4',
      LIST_BATCH_SIZE: '50',
    });
    db = t.app.get(TransactionHost);
  });
  afterAll(() => t.close());

  /** The limits in force where the statement runs, in ms. */
  const limits = async (): Promise<Record<string, string>> =>
    Object.fromEntries(
      (
        await db.tx.query<{ name: string; setting: string }[]>(
          `SELECT name, setting FROM pg_settings
            WHERE name IN ('statement_timeout', 'idle_in_transaction_session_timeout')`,
        )
      ).map(({ name, setting }) => [name, setting]),
    );
  const LIMITS = {
    statement_timeout: String(STATEMENT_TIMEOUT_MS),
    idle_in_transaction_session_timeout: String(2 * STATEMENT_TIMEOUT_MS),
  };

  it('tells a pooler from a direct connection, even through a TCP proxy', async () => {
    const server = process.env[TEST_SERVER_ENV]!;
    const pooled = process.env[THROUGH_POOLER_ENV] !== undefined;
    const target = new URL(server);
    const proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
    await proxy.start();
    try {
      expect([
        await leadsThroughPooler(server, 3000),
        await leadsThroughPooler(proxy.route(server), 3000),
      ]).toEqual([pooled, pooled]);
    } finally {
      await proxy.cut();
    }
  });

  it('bounds a statement outside any transaction', async () => {
    expect((await limits()).statement_timeout).toBe(LIMITS.statement_timeout);
    await expect(db.tx.query('SELECT pg_sleep(30)')).rejects.toMatchObject({
      code: '57014',
      message: 'canceling statement due to statement timeout',
    });
  });

  it("bounds a hot path's statement outside any transaction, sent through the pool's own query", async () => {
    const { rows } = await queryOnConnection<{ setting: string }>(
      db.tx,
      `SELECT setting FROM pg_settings WHERE name = $1`,
      ['statement_timeout'],
    );
    expect(rows).toEqual([{ setting: LIMITS.statement_timeout }]);
    await expect(queryOnConnection(db.tx, 'SELECT pg_sleep($1)', [30])).rejects.toMatchObject({
      code: '57014',
      message: 'canceling statement due to statement timeout',
    });
  });

  it('bounds a statement in a transaction, at every isolation level', async () => {
    for (const isolationLevel of [undefined, 'REPEATABLE READ', 'SERIALIZABLE'] as const) {
      // Without a level, the default one (READ COMMITTED).
      const transaction = <T>(work: () => Promise<T>) =>
        isolationLevel ? db.withTransaction({ isolationLevel }, work) : db.withTransaction(work);
      const inForce = await transaction(limits);
      expect([isolationLevel, inForce]).toEqual([isolationLevel, LIMITS]);
      await expect(transaction(() => db.tx.query('SELECT pg_sleep(30)'))).rejects.toMatchObject({
        code: '57014',
      });
    }
  });

  it("refuses a scope's first policy with a 503 when a change holds the counts' lock past the statement limit", async () => {
    const scope = await createScope(t.http, 'held');
    // A change that wrote the scope's streams (its trigger holds the lock shared) and does not end.
    const holder = new Client({ connectionString: t.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock_shared(7404, hashtext($1))', [scope]);
      const refused = await t.http.put(`/v1/scopes/${scope}/policy`).send({ maxStreams: 3 });
      expect(refused.status).toBe(503);
      expect(JSON.stringify(refused.body)).not.toMatch(/scope_policy_usage|advisory|SELECT/i);
      await holder.query('COMMIT');
    } finally {
      await holder.end();
    }
    const none = await t.http.get(`/v1/scopes/${scope}/policy`).expect(200);
    expect(none.body).toEqual({});
    await t.http.put(`/v1/scopes/${scope}/policy`).send({ maxStreams: 3 }).expect(200);
  });

  it('cuts off a streamed list whose client stops reading, and serves on', async () => {
    const scope = await createScope(t.http, 'unread');
    // Some 30 MB, far more than the socket buffers of a reader that reads nothing hold: the service waits for the client
    // mid-answer, between two of its 40 batches.
    // On a connection of the test's own: the app's connections give up on a statement after
    // its time limit, which a loaded machine may need for this bulk insert.
    const own = new Client({ connectionString: t.url });
    await own.connect();
    try {
      await insertStreams((sql, params) => own.query(sql, params), scope, 2_000, 128);
    } finally {
      await own.end();
    }
    const socket = await requestUnread(await listeningPort(t), `/v1/scopes/${scope}/streams`);
    expect(await eventually(() => openSnapshots(t), 1)).toBe(1);
    const waiting = Date.now();
    // The transaction may wait twice the statement timeout: then PostgreSQL ends it.
    expect(await eventually(() => openSnapshots(t), 0, { attempts: 150 })).toBe(0);
    expect(Date.now() - waiting).toBeLessThan(3 * 2 * STATEMENT_TIMEOUT_MS);
    const { text, whole } = await readRaw(socket);
    expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(text.length).toBeGreaterThan(0);
    expect(whole).toBe(false);
    const after = await t.http.get(`/v1/scopes/${scope}/streams?limit=1`).expect(200);
    expect(after.body).toMatchObject({ streams: [{ streamName: 'bulk-000001' }] });
  });
});
