import { Client } from 'pg';
import { Answer, ApiClient } from './support/api-client';
import { recordFigure, SOAK_TEST_TIMEOUT_MS, soakScale } from './support/figures';
import { eventually } from './support/eventually';
import { brokenInvariants } from './support/invariants';
import { ServiceProcess } from './support/service-process';
import { createTestDatabase } from './support/test-database';

jest.setTimeout(SOAK_TEST_TIMEOUT_MS);

const ROUNDS = soakScale(4, 40);

const range = (keyStart: number, keyEnd: number) => ({ keyStart, keyEnd });
/** Segments 1 and 2 of four equal ones, split two ways: what each contender asks. */
const CONTENDED = [
  { sealedSegments: [1, 2], newRanges: [range(0.25, 0.4), range(0.4, 0.75)] },
  { sealedSegments: [2, 1], newRanges: [range(0.25, 0.5), range(0.5, 0.6), range(0.6, 0.75)] },
];

const problemOf = (answer: Answer) => (answer.body as { code?: string } | undefined)?.code;
/** Each answer's status and problem code, by status: whichever answer came first. */
const outcomesOf = (answers: Answer[]) =>
  answers.map((r) => [r.status, problemOf(r)] as const).sort(([x], [y]) => x - y);

/**
 * Scales racing on two instances of the service against one database (docs/extensions.md
 * section 7): the stream's row lock makes them take turns, so the loser sees the winner's epoch.
 */
describe('Scales racing on two instances (e2e)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let services: ServiceProcess[];
  let a: ApiClient;
  let b: ApiClient;
  let sql: Client;
  let raced = 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    services = await ServiceProcess.instances(database.url);
    [a, b] = services.map((service) => new ApiClient(service.baseUrl));
    sql = new Client({ connectionString: database.url });
    await sql.connect();
    expect((await a.call('POST', '/v1/scopes', { scopeName: 'race' })).status).toBe(201);
  });
  afterEach(async () => {
    expect([...a.serverErrors(), ...b.serverErrors()]).toEqual([]);
    expect(
      await brokenInvariants(async (text) => (await sql.query<Record<string, unknown>>(text)).rows),
    ).toEqual([]);
  });
  afterAll(async () => {
    recordFigure('scales raced across two instances', raced);
    await sql.end();
    await Promise.all(services.map((service) => service.stop()));
    await database.drop();
  });

  /** A new stream of four equal segments, its path and its entity tag. */
  const stream = async (name: string): Promise<{ path: string; etag: string }> => {
    const created = await a.call('POST', '/v1/scopes/race/streams', {
      streamName: name,
      scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 4 },
    });
    expect(created.status).toBe(201);
    const path = `/v1/scopes/race/streams/${name}`;
    const res = await fetch(`${a.baseUrl}${path}`);
    return { path, etag: res.headers.get('etag')! };
  };
  const epochsOf = async (name: string) =>
    (
      await sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM stream_epochs WHERE scope_name = 'race' AND stream_name = $1`,
        [name],
      )
    ).rows[0].n;
  const PROBLEM = { Accept: 'application/problem+json' };

  /**
   * Sends the calls while another transaction holds the stream's row lock, and releases it once
   * every one of them waits for it: they contend for certain, whatever the timing.
   */
  const contending = async (name: string, send: () => Promise<Answer>[]): Promise<Answer[]> => {
    const holder = new Client({ connectionString: database.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(
        `SELECT 1 FROM streams WHERE scope_name = 'race' AND name = $1 FOR UPDATE`,
        [name],
      );
      const pending = send();
      const waiting = async () =>
        (
          await sql.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          )
        ).rows[0].n;
      expect(await eventually(waiting, pending.length)).toBe(pending.length);
      await holder.query('COMMIT');
      raced += pending.length;
      return await Promise.all(pending);
    } finally {
      await holder.end();
    }
  };

  it('lets exactly one of two scales of the same segments win; the other is SEGMENT_NOT_ACTIVE', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const name = `same-${round}`;
      const { path } = await stream(name);
      const answers = await contending(name, () => [
        a.call('POST', `${path}/scale`, CONTENDED[0], PROBLEM),
        b.call('POST', `${path}/scale`, CONTENDED[1], PROBLEM),
      ]);
      const outcome = outcomesOf(answers);
      expect(outcome).toEqual([
        [200, undefined],
        [412, 'SEGMENT_NOT_ACTIVE'],
      ]);
      const winner = answers.find((r) => r.status === 200)!.body as { segments: object[] };
      const now = await a.call('GET', `${path}/segments`);
      expect(now.body).toEqual({ epoch: 1, segments: winner.segments });
      expect(await epochsOf(name)).toBe(2);
    }
  });

  it('with the same If-Match, still one winner; the loser is refused with 412 and nothing changes', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const name = `tagged-${round}`;
      const { path, etag } = await stream(name);
      const headers = { ...PROBLEM, 'If-Match': etag };
      const same = await contending(name, () => [
        a.call('POST', `${path}/scale`, CONTENDED[0], headers),
        b.call('POST', `${path}/scale`, CONTENDED[1], headers),
      ]);
      // Rule 3 comes before rule 6: the loser's segments are gone before its tag is compared.
      expect(outcomesOf(same)).toEqual([
        [200, undefined],
        [412, 'SEGMENT_NOT_ACTIVE'],
      ]);
      // Other segments, so only the tag can stop the loser.
      const { path: other, etag: otherTag } = await stream(`${name}-other`);
      const tagged = { ...PROBLEM, 'If-Match': otherTag };
      const apart = await contending(`${name}-other`, () => [
        a.call(
          'POST',
          `${other}/scale`,
          { sealedSegments: [0], newRanges: [range(0, 0.25)] },
          tagged,
        ),
        b.call(
          'POST',
          `${other}/scale`,
          { sealedSegments: [3], newRanges: [range(0.75, 1)] },
          tagged,
        ),
      ]);
      expect(outcomesOf(apart)).toEqual([
        [200, undefined],
        [412, 'PRECONDITION_FAILED'],
      ]);
      expect([await epochsOf(name), await epochsOf(`${name}-other`)]).toEqual([2, 2]);
    }
  });

  it('serialises scales of different segments: both win, one epoch each, numbered on', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const name = `apart-${round}`;
      const { path } = await stream(name);
      const answers = await contending(name, () => [
        a.call('POST', `${path}/scale`, { sealedSegments: [0], newRanges: [range(0, 0.25)] }),
        b.call('POST', `${path}/scale`, {
          sealedSegments: [3],
          newRanges: [range(0.75, 0.9), range(0.9, 1)],
        }),
      ]);
      expect(answers.map((r) => r.status)).toEqual([200, 200]);
      const epochs = answers.map((r) => (r.body as { epoch: number }).epoch).sort((x, y) => x - y);
      expect(epochs).toEqual([1, 2]);
      const now = await b.call('GET', `${path}/segments`);
      const numbers = (now.body as { segments: { number: number }[] }).segments.map(
        (s) => s.number,
      );
      expect(numbers.slice(1, 3)).toEqual([1, 2]);
      expect([...numbers].sort((x, y) => x - y)).toEqual([1, 2, 4, 5, 6]);
      expect(await epochsOf(name)).toBe(3);
    }
  });
});
