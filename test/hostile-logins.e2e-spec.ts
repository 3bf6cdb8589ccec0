import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { basic, writeAccounts } from './support/accounts';
import { recordFigure } from './support/figures';
import { beside, hostileTarget } from './support/hostile';
import { Answer, sendFrom } from './support/http-forwarder';
import { COMMITTED_DOCUMENT_PATH } from './support/openapi';
import type { ServiceProcess } from './support/service-process';

const MAX_FAILURES = 5;
const FLOOD = 200;

const ACCOUNTS = {
  admin: 'prn::*,READ_UPDATE',
  /** Any other account: holding it must not help guess admin's password. */
  other: 'prn::/scope:other,READ',
  /** Reads everything, changes nothing: not allowed the health details. */
  reader: 'prn::*,READ',
  /** Logs in for the first time while another address floods the service. */
  victim: 'prn::/scope:victim,READ',
};

/** A login: any account may ask who it is. */
const WHOAMI = '/v1/auth/whoami';

const wrong = (user: string, guess: number | string = 'guess'): string =>
  basic(user, `not-the-password-${guess}`);

/** A problem document that tells nothing of the code: no stack, no internals. */
function expectTooManyFailures(answer: Answer): void {
  expect(answer.status).toBe(429);
  expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
  const problem = JSON.parse(answer.body) as Record<string, unknown>;
  expect(problem).toMatchObject({ status: 429, code: 'TOO_MANY_AUTH_FAILURES' });
  expect(answer.body).not.toMatch(/\bat \S+ \(|node_modules|\.ts:\d+/);
}

const count = (statuses: number[], status: number): number =>
  statuses.filter((s) => s === status).length;

/** The whole tree's `details`, wherever they are (the root, a contributor, a child). */
function detailsIn(body: unknown): unknown[] {
  if (typeof body !== 'object' || body === null) return [];
  const node = body as { details?: unknown; children?: Record<string, unknown> };
  return [
    ...(node.details === undefined ? [] : [node.details]),
    ...Object.values(node.children ?? {}).flatMap(detailsIn),
  ];
}

/**
 * Password guessing as its author sends it, to the built service with AUTH_MAX_FAILURES=5: the
 * failed-login limit holds under concurrency and across accounts, a flood costs the service no
 * more password hashes than the limit allows while another address logs in, and the health
 * routes show their details only to callers allowed `/v1/health/details` (docs/behaviour.md
 * sections 7 and 8).
 */
describe('Hostile logins (e2e, built service)', () => {
  let target: { service: ServiceProcess; stop(): Promise<void> };
  let port: number;
  /** One request from `client` (each test's clients are addresses of their own: 127.0.0.x). */
  const from = (client: string, authorization?: string, path = WHOAMI): Promise<Answer> =>
    sendFrom(client, port, {
      path,
      headers: authorization === undefined ? {} : { authorization },
    });
  const timed = async (send: () => Promise<Answer>): Promise<{ answer: Answer; ms: number }> => {
    const started = performance.now();
    const answer = await send();
    return { answer, ms: performance.now() - started };
  };
  const statusesOf = async (sends: (() => Promise<Answer>)[]): Promise<number[]> => {
    const statuses: number[] = [];
    for (const send of sends) statuses.push((await send()).status);
    return statuses;
  };

  beforeAll(async () => {
    target = await hostileTarget({
      AUTH_ENABLED: 'true',
      AUTH_ACCOUNTS_FILE: await writeAccounts(ACCOUNTS),
      AUTH_MAX_FAILURES: String(MAX_FAILURES),
    });
    port = Number(new URL(target.service.baseUrl).port);
  });
  afterAll(() => target.stop());

  it('checks at most AUTH_MAX_FAILURES of 200 concurrent guesses, and another address logs in meanwhile', async () => {
    const flood = (client: string) =>
      Array.from({ length: FLOOD }, (_, i) => from(client, wrong('admin', i)));
    const probe = { headers: { authorization: basic('admin') } };
    // The CPU of one password hash here: five wrong passwords in a row, which leave their
    // address refused.
    const hashes = await beside(
      target.service,
      async () => {
        for (let i = 0; i < MAX_FAILURES; i++) {
          expect((await from('127.0.0.12', wrong('admin', i))).status).toBe(401);
        }
      },
      probe,
    );
    const oneHashCpuMs = hashes.serviceCpuMs / MAX_FAILURES;
    // What a flood's requests cost without their hashes, with a hash of another address beside
    // them, as the victim's will be: 200 at once from the address now refused.
    const refusals = await beside(
      target.service,
      async () => {
        const hash = from('127.0.0.13', wrong('admin'));
        const refused = (await Promise.all(flood('127.0.0.12'))).at(-1)!;
        expect((await hash).status).toBe(401);
        return refused;
      },
      probe,
    );
    expectTooManyFailures(refusals.value);

    let victim: { answer: Answer; ms: number } | undefined;
    const cost = await beside(
      target.service,
      async () => {
        const guesses = flood('127.0.0.2');
        // The flood is in the service once its first answer is out: the victim comes then.
        await Promise.race(guesses);
        victim = await timed(() => from('127.0.0.3', basic('victim')));
        return Promise.all(guesses);
      },
      probe,
    );

    const statuses = cost.value.map((answer) => answer.status);
    recordFigure('logins: 401 of 200 concurrent wrong passwords', count(statuses, 401));
    recordFigure('logins: one password hash, service CPU ms', oneHashCpuMs);
    recordFigure('logins: first login beside the flood, ms', victim!.ms);
    recordFigure('logins: flood of 200, ms', cost.attackMs);
    recordFigure('logins: flood of 200, service CPU ms', cost.serviceCpuMs);
    recordFigure('logins: 200 refused at once, service CPU ms', refusals.serviceCpuMs);
    recordFigure('logins: slowest probe GET beside the flood, ms', cost.worstGetMs);
    recordFigure('logins: idle probe GET, ms', cost.idleGetMs);

    expect(count(statuses, 401)).toBe(MAX_FAILURES);
    expect(count(statuses, 429)).toBe(FLOOD - MAX_FAILURES);
    expectTooManyFailures(cost.value.find((answer) => answer.status === 429)!);
    // The flood's address stays refused, the right password too, until the window ends.
    expectTooManyFailures(await from('127.0.0.2', basic('admin')));

    // The victim logs in meanwhile. The flood costs the service its requests read and refused,
    // its five hashes and the victim's: the CPU of 200 refusals beside a hash, and five hashes
    // more (half as dear again, for two cores shared with the rest of the suite). A hash for
    // each guess would cost forty times that; wall times, stretched by a busy machine, are
    // kept for the run's report.
    expect(victim!.answer.status).toBe(200);
    expect(cost.serviceCpuMs).toBeLessThan(
      refusals.serviceCpuMs + 1.5 * MAX_FAILURES * oneHashCpuMs,
    );
  });

  it('does not let a good login as one account reset the guesses at another', async () => {
    const round = [
      ...Array.from({ length: 4 }, (_, i) => () => from('127.0.0.4', wrong('admin', i))),
      () => from('127.0.0.4', basic('other')),
    ];
    const statuses = await statusesOf(Array.from({ length: 5 }, () => round).flat());
    recordFigure('logins: 429 of 5 rounds of 4 guesses and 1 good login', count(statuses, 429));
    expect(statuses).toEqual([
      ...[401, 401, 401, 401, 200],
      ...[401, 429, 429, 429, 429],
      ...Array<number>(15).fill(429),
    ]);
    expectTooManyFailures(await from('127.0.0.4', wrong('admin')));
  });

  it("clears, on a good login, that account's failures from that address and no others", async () => {
    const statuses = await statusesOf([
      () => from('127.0.0.5', wrong('other', 1)),
      () => from('127.0.0.5', wrong('other', 2)),
      () => from('127.0.0.5', wrong('admin', 1)),
      () => from('127.0.0.5', wrong('admin', 2)),
      // Clears other's two; admin's two remain: three more failures reach five.
      () => from('127.0.0.5', basic('other')),
      () => from('127.0.0.5', wrong('admin', 3)),
      () => from('127.0.0.5', wrong('admin', 4)),
      () => from('127.0.0.5', wrong('admin', 5)),
      () => from('127.0.0.5', wrong('admin', 6)),
    ]);
    expect(statuses).toEqual([401, 401, 401, 401, 200, 401, 401, 401, 429]);
    // Another address is not concerned.
    expect((await from('127.0.0.6', basic('admin'))).status).toBe(200);
  });

  describe('health details', () => {
    /** Every health route: the contract's (but the details) with and without a contributor, and the probes. */
    const ROUTES = [
      '/v1/health',
      '/v1/health/disk',
      '/v1/health/memory',
      '/v1/health/memory/heap',
      '/v1/health/database',
      '/v1/health/migrations',
      '/v1/health/eventLoop',
      '/v1/health/status',
      '/v1/health/status/disk',
      '/v1/health/liveness',
      '/v1/health/liveness/memory',
      '/v1/health/readiness',
      '/v1/health/readiness/disk',
      '/ping',
      '/livez',
      '/readyz',
    ];
    const CARRYING_DETAILS = ROUTES.slice(0, 7);

    it('covers every health route of the API document but the details themselves', () => {
      const document = JSON.parse(readFileSync(COMMITTED_DOCUMENT_PATH, 'utf8')) as {
        paths: Record<string, Record<string, { tags?: string[] }>>;
      };
      const templates = Object.entries(document.paths)
        .filter(([, operations]) =>
          Object.values(operations).some((o) => o.tags?.includes('Health')),
        )
        .map(([template]) => template)
        .filter((template) => !template.startsWith('/v1/health/details'));
      expect(templates.length).toBeGreaterThanOrEqual(10);
      for (const template of templates) {
        const pattern = new RegExp(`^${template.replace('{id}', '[^/]+(/[^/]+)*')}$`);
        expect([template, ROUTES.some((route) => pattern.test(route))]).toEqual([template, true]);
      }
    });

    it('are shown to no anonymous caller and no reader, on any health route', async () => {
      for (const [who, authorization] of [
        ['anonymous', undefined],
        ['reader', basic('reader')],
      ]) {
        for (const path of ROUTES) {
          const answer = await from('127.0.0.7', authorization, path);
          expect([who, path, answer.status]).toEqual([who, path, 200]);
          const body: unknown = answer.body === '' ? undefined : JSON.parse(answer.body);
          expect([who, path, detailsIn(body)]).toEqual([who, path, []]);
        }
      }
      // The status tree itself is there.
      const tree = JSON.parse((await from('127.0.0.7', undefined, '/v1/health')).body) as {
        status: string;
        children: Record<string, { status: string }>;
      };
      expect(tree.status).toMatch(/^(UP|DOWN)$/);
      expect(Object.keys(tree.children)).toEqual([
        'database',
        'migrations',
        'memory',
        'disk',
        'eventLoop',
      ]);
      expect(tree.children.disk).toEqual(expect.objectContaining({ name: 'disk', children: {} }));
    });

    it('are shown to a caller allowed /v1/health/details', async () => {
      for (const path of CARRYING_DETAILS) {
        const answer = await from('127.0.0.8', basic('admin'), path);
        expect([path, answer.status]).toEqual([path, 200]);
        const body = JSON.parse(answer.body) as { details?: object };
        expect([path, body.details]).toEqual([path, expect.any(Object)]);
      }
      const root = JSON.parse((await from('127.0.0.8', basic('admin'), '/v1/health')).body);
      expect(root).toMatchObject({ details: { state: 'serving' } });
      const disk = JSON.parse((await from('127.0.0.8', basic('admin'), '/v1/health/disk')).body);
      expect(disk).toMatchObject({ details: { path: expect.any(String) } });
      expect((await from('127.0.0.8', basic('reader'), '/v1/health/details')).status).toBe(403);
      expect((await from('127.0.0.8', undefined, '/v1/health/details')).status).toBe(401);
    });

    it('refuses wrong credentials on an open health route, as a failed login', async () => {
      const statuses = await statusesOf(
        Array.from(
          { length: MAX_FAILURES + 1 },
          (_, i) => () => from('127.0.0.10', wrong('admin', i), '/v1/health'),
        ),
      );
      expect(statuses).toEqual([...Array<number>(MAX_FAILURES).fill(401), 429]);
    });
  });
});
