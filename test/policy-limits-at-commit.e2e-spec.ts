import { Client } from 'pg';
import { createScope, fixedStream, PROBLEM_HEADERS } from './support/factories';
import { eventually } from './support/eventually';
import { brokenInvariants } from './support/invariants';
import { startTestApp, TestApp } from './support/test-app';

interface Answer {
  status: number;
  body: { code?: string; detail?: string; violations?: object[] };
}

/**
 * A scope's count limits held at the commit of changes that each passed their checks on the same
 * counts (docs/ARCHITECTURE.md, "Counts a policy limits"). A connection of the test's own holds
 * the scope's counts, so that the changes are judged, write, and wait at their commits; when it
 * lets go, the commits settle the counts one after the other, and the one that would pass the
 * limit is refused, with nothing of it written.
 */
describe('Scope policies: count limits held at commit (e2e)', () => {
  let t: TestApp;
  let holder: Client;

  beforeAll(async () => {
    t = await startTestApp();
    holder = new Client({ connectionString: t.url });
    await holder.connect();
  });
  afterEach(async () => {
    expect(await brokenInvariants((text) => t.sql(text))).toEqual([]);
  });
  afterAll(async () => {
    await holder.end();
    await t.close();
  });

  /**
   * The backends of this database waiting for a lock in the statement that starts `sql`: a
   * change's last one (`WITH`), which takes the change feed's counter, or its `COMMIT`.
   */
  const waitingIn = async (sql: string): Promise<number> => {
    const [row] = await t.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock'
          AND query LIKE $1 || '%'`,
      [sql],
    );
    return row.n;
  };

  /**
   * Runs `changes` while the scope's counts are held, and lets go once they are all judged and
   * written: one waits at its COMMIT for the counts, holding the change feed's counter, which
   * the others wait for in their last statement. Their answers.
   */
  async function judgedOnTheSameCounts(
    scope: string,
    changes: (() => PromiseLike<Answer>)[],
  ): Promise<Answer[]> {
    await holder.query('BEGIN');
    try {
      await holder.query(
        'SELECT 1 FROM scope_policy_counts WHERE scope_name = $1 FOR NO KEY UPDATE',
        [scope],
      );
      const answers = Promise.all(changes.map((change) => change()));
      expect(await eventually(() => waitingIn('COMMIT'), 1)).toBe(1);
      const behind = changes.length - 1;
      expect(await eventually(() => waitingIn('WITH'), behind)).toBe(behind);
      await holder.query('COMMIT');
      return await answers;
    } catch (error) {
      await holder.query('ROLLBACK');
      throw error;
    }
  }

  const counts = async (scope: string) =>
    (
      await t.sql<{ user_streams: number; active_segments: number }>(
        'SELECT user_streams, active_segments FROM scope_policy_counts WHERE scope_name = $1',
        [scope],
      )
    )[0];

  const written = async (scope: string, stream: string) =>
    (
      await t.sql<{ audit: number; events: number }>(
        `SELECT (SELECT count(*)::int FROM audit_events WHERE resource = $1) AS audit,
                (SELECT count(*)::int FROM change_events WHERE resource = $1) AS events`,
        [`prn::/scope:${scope}/stream:${stream}`],
      )
    )[0];

  it('refuses at its commit the create that the creates committed before it leave over maxStreams', async () => {
    const scope = await createScope(t.http, 'commit');
    await t.http.put(`/v1/scopes/${scope}/policy`).send({ maxStreams: 3 }).expect(200);
    for (const name of ['a', 'b']) {
      await t.http.post(`/v1/scopes/${scope}/streams`).send(fixedStream(name)).expect(201);
    }
    const create = (name: string) => () =>
      t.http.post(`/v1/scopes/${scope}/streams`).set(PROBLEM_HEADERS).send(fixedStream(name));
    const answers = await judgedOnTheSameCounts(scope, [create('c'), create('d')]);

    expect(answers.map((a) => a.status).sort()).toEqual([201, 422]);
    const refused = answers.findIndex((a) => a.status === 422);
    const { body } = answers[refused];
    expect(body.code).toBe('POLICY_VIOLATION');
    expect(body.detail).toMatch(
      new RegExp(
        `^With the changes to scope ${scope} committed before it, the change would break a rule`,
      ),
    );
    expect(body.violations).toEqual([
      expect.objectContaining({ rule: 'maxStreams', limit: 3, actual: 4 }),
    ]);
    expect(await counts(scope)).toEqual({ user_streams: 3, active_segments: 3 });
    // Nothing of the refused create is kept: neither the stream, nor its audit, nor its event.
    const name = refused === 0 ? 'c' : 'd';
    await t.http.get(`/v1/scopes/${scope}/streams/${name}`).expect(404);
    expect(await written(scope, name)).toEqual({ audit: 0, events: 0 });
  });

  it('refuses at its commit the scale that the scales committed before it leave over maxActiveSegments', async () => {
    const scope = await createScope(t.http, 'commit');
    await t.http.put(`/v1/scopes/${scope}/policy`).send({ maxActiveSegments: 3 }).expect(200);
    for (const name of ['a', 'b']) {
      await t.http.post(`/v1/scopes/${scope}/streams`).send(fixedStream(name)).expect(201);
    }
    const split = {
      sealedSegments: [0],
      newRanges: [
        { keyStart: 0, keyEnd: 0.5 },
        { keyStart: 0.5, keyEnd: 1 },
      ],
    };
    const scale = (name: string) => () =>
      t.http.post(`/v1/scopes/${scope}/streams/${name}/scale`).set(PROBLEM_HEADERS).send(split);
    const answers = await judgedOnTheSameCounts(scope, [scale('a'), scale('b')]);

    expect(answers.map((a) => a.status).sort()).toEqual([200, 422]);
    expect(answers.find((a) => a.status === 422)?.body.violations).toEqual([
      expect.objectContaining({ rule: 'maxActiveSegments', limit: 3, actual: 4 }),
    ]);
    expect(await counts(scope)).toEqual({ user_streams: 2, active_segments: 3 });
  });

  it('lets through at its commit a change that lowers a count, and one that raises another within its limit', async () => {
    const scope = await createScope(t.http, 'commit');
    await t.http
      .put(`/v1/scopes/${scope}/policy`)
      .send({ maxStreams: 3, maxActiveSegments: 10 })
      .expect(200);
    for (const name of ['a', 'b', 'c']) {
      await t.http.post(`/v1/scopes/${scope}/streams`).send(fixedStream(name)).expect(201);
    }
    await t.http
      .put(`/v1/scopes/${scope}/streams/a/state`)
      .send({ streamState: 'SEALED' })
      .expect(200);
    const answers = await judgedOnTheSameCounts(scope, [
      () => t.http.delete(`/v1/scopes/${scope}/streams/a`),
      () =>
        t.http
          .put(`/v1/scopes/${scope}/streams/b`)
          .send({ scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 4 } }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([204, 200]);
    expect(await counts(scope)).toEqual({ user_streams: 2, active_segments: 5 });
  });

  it("answers a PUT of the policy while a change's commit waits for the counts, and holds the change to the policy it finds there", async () => {
    const scope = await createScope(t.http, 'commit');
    await t.http.put(`/v1/scopes/${scope}/policy`).send({ maxStreams: 5 }).expect(200);
    await t.http.post(`/v1/scopes/${scope}/streams`).send(fixedStream('a')).expect(201);
    await holder.query('BEGIN');
    let lowered: Promise<Answer> | undefined;
    try {
      await holder.query(
        'SELECT 1 FROM scope_policy_counts WHERE scope_name = $1 FOR NO KEY UPDATE',
        [scope],
      );
      // The create was judged by maxStreams 5 and waits at its commit, holding the change
      // feed's counter, which the PUT wants last: the PUT must not wait for what it holds.
      const created = t.http
        .post(`/v1/scopes/${scope}/streams`)
        .set(PROBLEM_HEADERS)
        .send(fixedStream('b'))
        .then();
      expect(await eventually(() => waitingIn('COMMIT'), 1)).toBe(1);
      lowered = t.http.put(`/v1/scopes/${scope}/policy`).send({ maxStreams: 1 }).then();
      expect(await eventually(() => waitingIn('WITH'), 1)).toBe(1);
      await holder.query('COMMIT');
      const [create, put] = await Promise.all([created, lowered]);
      expect([create.status, put.status]).toEqual([201, 200]);
    } catch (error) {
      await holder.query('ROLLBACK');
      await lowered;
      throw error;
    }
    // The policy now set is below the count: the next create is refused by its check.
    const next = await t.http
      .post(`/v1/scopes/${scope}/streams`)
      .set(PROBLEM_HEADERS)
      .send(fixedStream('c'));
    expect(next.status).toBe(422);
    expect(await counts(scope)).toEqual({ user_streams: 2, active_segments: 2 });
  });
});
