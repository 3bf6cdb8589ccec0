import { Client } from 'pg';
import { DataSource, type EntityManager } from 'typeorm';
import { portalBatches } from '../src/database/portal-batches';
import { typeOrmOptions } from '../src/database/typeorm-options';
import { createTestDatabase } from './support/test-database';

/** The statement time limit of these tests' connections: a portal lives half as long. */
const STATEMENT_TIMEOUT_MS = 600;
const ROWS = 2_500;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

/**
 * A long list read through portals (`portal-batches.ts`), against PostgreSQL with the service's
 * connection settings and a short statement time limit: every row once, in order, in one
 * snapshot, whether the reader is quick, slow, or gone.
 */
describe('Lists read through a portal (e2e)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let dataSource: DataSource;
  /** The positions each portal was opened after, in turn (undefined: from the start). */
  let opened: (number | undefined)[];

  const statement = (after: { n: number } | undefined) => {
    opened.push(after?.n);
    return after === undefined
      ? { sql: 'SELECT n FROM listed ORDER BY n', values: [] }
      : { sql: 'SELECT n FROM listed WHERE n > $1 ORDER BY n', values: [after.n] };
  };
  const hydrate = (rows: Record<string, unknown>[]) => rows as { n: number }[];
  const batches = (manager: EntityManager, size: number) =>
    portalBatches(manager, statement, size, hydrate);
  /** Every row's `n`, read `size` at a time by `reader`, in a snapshot of its own. */
  const read = (size: number, reader: (batch: number) => Promise<void> = async () => {}) =>
    dataSource.transaction('REPEATABLE READ', async (manager) => {
      const numbers: number[] = [];
      for await (const batch of batches(manager, size)) {
        numbers.push(...batch.map((row) => row.n));
        await reader(numbers.length);
      }
      return numbers;
    });
  const all = (count = ROWS) => Array.from({ length: count }, (_, i) => i + 1);

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await new DataSource(
      typeOrmOptions({
        url: database.url,
        poolSize: 2,
        statementTimeoutMs: STATEMENT_TIMEOUT_MS,
        connectTimeoutMs: 5_000,
      }),
    ).initialize();
    await dataSource.query('CREATE TABLE listed (n integer PRIMARY KEY)');
    await dataSource.query('INSERT INTO listed SELECT generate_series(1, $1::int)', [ROWS]);
  });
  beforeEach(() => (opened = []));
  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it('reads every row once, in order, a batch at a time, from one portal', async () => {
    expect(await read(1_000)).toEqual(all());
    expect(await read(500)).toEqual(all());
    // Two reads, one portal each: 2,500 rows in batches of 500 end with an empty batch.
    expect(opened).toEqual([undefined, undefined]);
  });

  it('leaves none of pg’s read timers behind once a list is read', async () => {
    const before = timers();
    expect(await read(1_000)).toEqual(all());
    expect(timers()).toBe(before);
  });

  it('gives a reader that keeps a batch longer than a portal lives the rest from another, in the same snapshot', async () => {
    const numbers = await read(1_000, async (count) => {
      if (count !== 1_000) return;
      await dataSource.query('INSERT INTO listed VALUES ($1)', [ROWS + 1]);
      // Longer than half the statement time limit: the portal is closed meanwhile.
      await pause(STATEMENT_TIMEOUT_MS);
    });
    expect(numbers).toEqual(all());
    expect(opened).toEqual([undefined, 1_000]);
    await dataSource.query('DELETE FROM listed WHERE n > $1', [ROWS]);
  });

  it('reads a list for longer than the statement time limit, each portal for less', async () => {
    // Each pause shorter than a portal lives, all of them longer than the time limit.
    const numbers = await read(250, () => pause(STATEMENT_TIMEOUT_MS / 5));
    expect(numbers).toEqual(all());
    expect(opened.length).toBeGreaterThan(1);
    expect(opened[0]).toBeUndefined();
  });

  it('ends the portal when its reader goes away, and the transaction goes on', async () => {
    const [first, portals] = await dataSource.transaction(async (manager) => {
      let firstBatch: number[] = [];
      for await (const batch of batches(manager, 1_000)) {
        firstBatch = batch.map((row) => row.n);
        break;
      }
      const open = await manager.query<{ count: string }[]>('SELECT count(*) FROM pg_cursors');
      return [firstBatch, Number(open[0].count)];
    });
    expect(first).toEqual(all(1_000));
    expect(portals).toBe(0);
  });

  it('is refused outside a transaction, where batches would not share a snapshot', async () => {
    const reading = batches(dataSource.manager, 1_000).next();
    await expect(reading).rejects.toThrow('a portal is read in a transaction only');
  });

  it('fails the read, without waiting for ever, when the connection is lost mid-list', async () => {
    const killer = new Client({ connectionString: database.url });
    await killer.connect();
    try {
      const reading = dataSource.transaction(async (manager) => {
        const [{ pid }] = await manager.query<{ pid: number }[]>('SELECT pg_backend_pid() AS pid');
        let count = 0;
        for await (const batch of batches(manager, 1_000)) {
          count += batch.length;
          if (count === 1_000) await killer.query('SELECT pg_terminate_backend($1)', [pid]);
        }
        return count;
      });
      await expect(reading).rejects.toThrow();
      // The pool gives a new connection: the next list is whole.
      expect(await read(1_000)).toEqual(all());
    } finally {
      await killer.end();
    }
  });
});
