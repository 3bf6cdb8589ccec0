import { IncomingHttpHeaders, request } from 'node:http';
import { basic, writeAccounts } from './support/accounts';
import {
  AttackCost,
  beside,
  CPU_BUDGET_MS,
  REQUEST_CPU_BUDGET_MS,
  hostileTarget,
  peakRssDuring,
  rssMiB,
} from './support/hostile';
import type { ServiceProcess } from './support/service-process';
import { SseClient } from './support/sse-client';
import { recordFigure } from './support/figures';

/**
 * Hostile clients of the headers the service reads and of the change feed (docs/extensions.md
 * sections 2 and 8), sent to the built service as their authors sent them: headers made to
 * backtrack a regular expression, and one client taking every place of the feed.
 */

const SPACES = ' '.repeat(16_000);
/** Two characters 16,000 spaces apart: what a split on optional spaces around a comma backtracks over. */
const SPREAD = `a${SPACES}b`;

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

interface Sent {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** The address it calls from: on Linux any of 127.0.0.0/8, another client as the service sees it. */
  localAddress?: string;
  signal?: AbortSignal;
}

/** One request on a connection of its own, as an attacker sends it. */
function send(
  url: string,
  { method = 'GET', headers = {}, body, localAddress, signal }: Sent = {},
) {
  return new Promise<Answer>((resolve, reject) => {
    const req = request(url, { method, headers, localAddress, signal, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** `count` requests, `concurrency` at a time, and their answers. */
async function sendAll(count: number, concurrency: number, one: () => Promise<Answer>) {
  const answers: Answer[] = [];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (answers.length < count) {
        const slot = answers.length;
        answers.push(undefined as unknown as Answer);
        answers[slot] = await one();
      }
    }),
  );
  return { answers };
}

/**
 * Each of `count` attack requests cost the service no more CPU than a few GETs do
 * ({@link REQUEST_CPU_BUDGET_MS}). Wall times are kept for the run's report, not judged: two
 * cores shared with the suite stretch them.
 */
function expectEachCheap(name: string, cost: AttackCost<unknown>, count: number): void {
  recordFigure(`${name}, service CPU a request, ms`, cost.serviceCpuMs / count);
  recordFigure(`${name}, service CPU a probe GET, ms`, cost.probeCpuMs);
  expect(cost.serviceCpuMs / count).toBeLessThanOrEqual(REQUEST_CPU_BUDGET_MS);
}

/** A problem document of `status` with `code`: no stack trace, no SQL. */
function expectProblem(answer: Answer, status: number, code: string): Record<string, unknown> {
  expect(answer.status).toBe(status);
  const problem = JSON.parse(answer.body) as Record<string, unknown>;
  expect(problem).toMatchObject({ status, code });
  expect(answer.body).not.toMatch(/\n\s+at |SELECT|\.ts:\d+/);
  return problem;
}

describe('Headers made to backtrack a regular expression (e2e)', () => {
  let target: Awaited<ReturnType<typeof hostileTarget>>;
  let base: string;
  const ALICE = { Authorization: basic('alice') };

  beforeAll(async () => {
    const accounts = await writeAccounts({
      alice: 'prn::*,READ_UPDATE',
      bob: 'prn::*,READ_UPDATE',
      // Stars between literals: as a regular expression, the fourth power of a resource's length.
      limited: 'prn::/scope:*-*-*-*-prod,READ',
    });
    target = await hostileTarget({
      AUTH_ENABLED: 'true',
      AUTH_ACCOUNTS_FILE: accounts,
      TRUST_PROXY: 'loopback',
      EVENTS_MAX_STREAMS_PER_CLIENT: '5',
    });
    base = target.service.baseUrl;
    const json = { ...ALICE, 'Content-Type': 'application/json' };
    const scope = await send(`${base}/v1/scopes`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ scopeName: 'sales' }),
    });
    const stream = await send(`${base}/v1/scopes/sales/streams`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ streamName: 'orders' }),
    });
    expect([scope.status, stream.status]).toEqual([201, 201]);
  });
  afterAll(() => target?.stop());

  const json = { 'Content-Type': 'application/json' };
  const dashes = '-'.repeat(255);
  const page = (answer: Answer) => {
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/html/);
  };
  const ok = (answer: Answer) => expect(answer.status).toBe(200);
  const feedPage = (answer: Answer) => {
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(answer.body)).toHaveProperty('events');
  };

  it.each<[string, number, () => Promise<Answer>, (answer: Answer) => void]>([
    [
      'If-None-Match on the console',
      100,
      () => send(`${base}/console/`, { headers: { 'If-None-Match': SPREAD } }),
      page,
    ],
    [
      'Accept-Encoding on the console',
      50,
      () => send(`${base}/console/`, { headers: { 'Accept-Encoding': `gzip;${SPACES}q=0` } }),
      (answer) => {
        page(answer);
        expect(answer.headers['content-encoding']).toBeUndefined();
      },
    ],
    [
      'If-None-Match on a read',
      50,
      () => send(`${base}/v1/scopes/sales`, { headers: { ...ALICE, 'If-None-Match': SPREAD } }),
      (answer) => expectProblem(answer, 400, 'INVALID_REQUEST'),
    ],
    [
      'If-Match on a PUT',
      50,
      () =>
        send(`${base}/v1/scopes/sales/streams/orders`, {
          method: 'PUT',
          headers: { ...ALICE, ...json, 'If-Match': SPREAD },
          body: JSON.stringify({ scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 } }),
        }),
      (answer) => expectProblem(answer, 400, 'INVALID_REQUEST'),
    ],
    [
      'Accept on the change feed',
      50,
      () =>
        send(`${base}/v1/events?since=0`, {
          headers: { ...ALICE, Accept: `text/event-stream;${SPACES}q=0` },
        }),
      feedPage,
    ],
    [
      'Last-Event-ID on the change feed',
      50,
      () =>
        send(`${base}/v1/events`, {
          headers: { ...ALICE, Accept: 'text/event-stream', 'Last-Event-ID': SPREAD },
        }),
      (answer) => expectProblem(answer, 400, 'INVALID_REQUEST'),
    ],
    [
      'X-Forwarded-For spread, behind trusted proxies',
      50,
      () => send(`${base}/v1/scopes`, { headers: { ...ALICE, 'X-Forwarded-For': SPREAD } }),
      ok,
    ],
    [
      'X-Forwarded-For of 1,400 trusted hops',
      50,
      () =>
        send(`${base}/v1/scopes`, {
          headers: { ...ALICE, 'X-Forwarded-For': Array(1400).fill('127.0.0.1').join(',') },
        }),
      ok,
    ],
    [
      'Forwarded',
      50,
      () => send(`${base}/v1/scopes`, { headers: { ...ALICE, Forwarded: `for=${SPREAD}` } }),
      ok,
    ],
    [
      'Authorization: Basic',
      50,
      () => send(`${base}/v1/scopes`, { headers: { Authorization: `Basic${SPACES}x` } }),
      (answer) => expectProblem(answer, 401, 'UNAUTHENTICATED'),
    ],
    [
      'Authorization: Bearer',
      50,
      () => send(`${base}/v1/scopes`, { headers: { Authorization: `Bearer${SPACES}x` } }),
      (answer) => expectProblem(answer, 401, 'UNAUTHENTICATED'),
    ],
    [
      'Idempotency-Key',
      50,
      () =>
        send(`${base}/v1/scopes`, {
          method: 'POST',
          headers: { ...ALICE, ...json, 'Idempotency-Key': SPREAD },
          body: JSON.stringify({ scopeName: 'never' }),
        }),
      (answer) => expectProblem(answer, 400, 'INVALID_REQUEST'),
    ],
    [
      'X-Request-Id',
      50,
      () => send(`${base}/v1/scopes`, { headers: { ...ALICE, 'X-Request-Id': SPREAD } }),
      (answer) => {
        ok(answer);
        expect(answer.headers['x-request-id']).not.toBe(SPREAD);
      },
    ],
    [
      'an ACL with stars, over names as long as they may be',
      10,
      () =>
        send(`${base}/v1/scopes/${dashes}/streams/${dashes}`, {
          headers: { Authorization: basic('limited') },
        }),
      (answer) => expectProblem(answer, 403, 'PERMISSION_DENIED'),
    ],
  ])(
    '%s: %i requests, 2 at a time, each costing no more CPU than a few GETs, so they slow no other',
    async (attackName, count, attack, expectAnswer) => {
      // The first answer pays for what is done once (a password's scrypt, code compiled).
      expectAnswer(await attack());
      const cost = await beside(target.service, () => sendAll(count, 2, attack), {
        headers: ALICE,
      });
      for (const answer of cost.value.answers) expectAnswer(answer);
      recordFigure(
        `hostile headers: ${attackName}, ${count} requests, ms`,
        Math.round(cost.attackMs),
      );
      recordFigure(`hostile headers: ${attackName}, p90 GET beside, ms`, Math.round(cost.p90GetMs));
      expectEachCheap(`hostile headers: ${attackName}`, cost, count);
    },
  );

  it("counts a principal's streams by its name, from any address, and not another principal's", async () => {
    const url = `${base}/v1/events`;
    const mine: SseClient[] = [];
    for (let i = 0; i < 5; i++) mine.push(await SseClient.open(url, ALICE));
    const beyond = await SseClient.open(url, ALICE, { localAddress: '127.0.0.2' });
    const bobs = await SseClient.open(url, { Authorization: basic('bob') });
    expect([...mine, beyond, bobs].map((stream) => stream.status)).toEqual([
      200, 200, 200, 200, 200, 503, 200,
    ]);
    await beyond.until((stream) => stream.ended !== undefined);
    expect(JSON.parse(beyond.body)).toMatchObject({ code: 'TOO_MANY_STREAMS' });
    for (const stream of [...mine, bobs]) stream.close();
  });
});

describe("The change feed's fair share (e2e)", () => {
  let target: Awaited<ReturnType<typeof hostileTarget>>;
  let service: ServiceProcess;
  let base: string;

  beforeAll(async () => {
    target = await hostileTarget({
      EVENTS_MAX_STREAMS_PER_CLIENT: '5',
      EVENTS_MAX_STREAMS: '8',
      EVENTS_MAX_LONG_POLLS: '8',
    });
    service = target.service;
    base = service.baseUrl;
  });
  afterAll(() => target?.stop());

  const from = (localAddress: string) => ({ localAddress });

  /** Opens a stream from `address` until one is given (a place is given back asynchronously). */
  async function streamOnceFree(address: string): Promise<SseClient> {
    for (let attempt = 0; attempt < 50; attempt++) {
      const stream = await SseClient.open(`${base}/v1/events`, {}, from(address));
      if (stream.status === 200) return stream;
      stream.close();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no stream for ${address}`);
  }

  it('gives one address its share of streams, then 503, while another address gets its own; a closed one is given back', async () => {
    const url = `${base}/v1/events`;
    const cost = await beside(service, async () => {
      const opened: SseClient[] = [];
      for (let i = 0; i < 8; i++) opened.push(await SseClient.open(url, {}, from('127.0.0.1')));
      for (let i = 0; i < 4; i++) opened.push(await SseClient.open(url, {}, from('127.0.0.2')));
      return opened;
    });
    const opened = cost.value;
    expect(opened.map((stream) => stream.status)).toEqual([
      ...[200, 200, 200, 200, 200, 503, 503, 503],
      ...[200, 200, 200, 503],
    ]);
    recordFigure('hostile feed: 12 streams opened, service CPU, ms', cost.serviceCpuMs);
    expect(cost.serviceCpuMs).toBeLessThanOrEqual(CPU_BUDGET_MS);
    const refused = opened.filter((stream) => stream.status === 503);
    for (const stream of refused) {
      await stream.until((s) => s.ended !== undefined);
      expect(stream.headers['retry-after']).toBe('5');
    }
    const [mineBeyond, , , instanceBeyond] = refused.map(
      (stream) => JSON.parse(stream.body) as Record<string, unknown>,
    );
    expect(mineBeyond).toMatchObject({ status: 503, code: 'TOO_MANY_STREAMS' });
    expect(mineBeyond.detail).toContain('(EVENTS_MAX_STREAMS_PER_CLIENT)');
    expect(instanceBeyond).toMatchObject({ status: 503, code: 'TOO_MANY_STREAMS' });
    expect(instanceBeyond.detail).toContain('(EVENTS_MAX_STREAMS)');

    opened[0].close();
    const again = await streamOnceFree('127.0.0.1');
    for (const stream of [again, ...opened]) stream.close();
  });

  /** Requests the service received and has not answered (its own gauge). */
  async function untilInFlight(count: number): Promise<void> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const metrics = await send(`${base}/metrics`);
      const now = Number(/^http_requests_in_flight (\d+)/m.exec(metrics.body)?.[1]);
      if (now === count) return;
      if (Date.now() > deadline) throw new Error(`${now} requests in flight, not ${count}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('gives one address its share of long polls: a few hundred more cost no memory and leave the others theirs; places are given back', async () => {
    const newest = await send(`${base}/v1/events`);
    const position = (JSON.parse(newest.body) as { position: string }).position;
    const poll = (wait: number, address: string, signal?: AbortSignal) =>
      send(`${base}/v1/events?since=${position}&wait=${wait}`, { localAddress: address, signal });

    // Its share (EVENTS_MAX_STREAMS_PER_CLIENT, 5) waits; each poll beyond it is refused at once.
    const flood = 300;
    const clients = [0, 1, 2, 3, 4].map(() => new AbortController());
    const held = clients.map((client) => poll(60, '127.0.0.1', client.signal));
    // Answered below, or cut off by the end of the test.
    for (const sent of held) sent.catch(() => undefined);
    await untilInFlight(5);
    const refuseAll = () => sendAll(flood - 5, 4, () => poll(60, '127.0.0.1'));
    // The first refusals pay for what is done once (code compiled, buffers grown); the
    // flood measured is the next one.
    await refuseAll();
    const before = rssMiB(service.pid);
    const cost = await beside(service, () => peakRssDuring(service.pid, refuseAll));
    const beyond = cost.value.value;
    for (const answer of beyond.answers) {
      const problem = expectProblem(answer, 503, 'TOO_MANY_LONG_POLLS');
      expect(problem.detail).toContain('(EVENTS_MAX_STREAMS_PER_CLIENT)');
      expect(answer.headers['retry-after']).toBe('5');
    }
    expectEachCheap('hostile feed: long polls refused', cost, flood - 5);
    recordFigure(
      'hostile feed: 300 long polls from one address, RSS growth, MiB',
      Math.round(cost.value.peakMiB - before),
    );
    expect(cost.value.peakMiB - before).toBeLessThan(24);
    await untilInFlight(5);

    // Another address still polls, up to the instance's places (EVENTS_MAX_LONG_POLLS, 8).
    const theirs = [0, 1, 2].map(() => poll(60, '127.0.0.2'));
    for (const sent of theirs) sent.catch(() => undefined);
    await untilInFlight(8);
    const instanceBeyond = await poll(60, '127.0.0.3');
    expect(expectProblem(instanceBeyond, 503, 'TOO_MANY_LONG_POLLS').detail).toContain(
      '(EVENTS_MAX_LONG_POLLS)',
    );

    // A client that goes away gives its place back at once, not when its minute is over.
    clients[0].abort();
    await expect(held[0]).rejects.toThrow();
    await untilInFlight(7);
    const third = poll(60, '127.0.0.3');
    third.catch(() => undefined);
    await untilInFlight(8);

    // A change answers every waiting poll, each of which had its place.
    const created = await send(`${base}/v1/scopes`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ scopeName: 'woken' }),
    });
    expect(created.status).toBe(201);
    const woken = await Promise.all([...held.slice(1), ...theirs, third]);
    for (const answer of woken) {
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ events: [{ scopeName: 'woken' }] });
    }

    // Answered polls gave their places back; so do polls that wait out their time.
    for (let round = 0; round < 2; round++) {
      const timedOut = await Promise.all([0, 1, 2, 3, 4].map(() => poll(1, '127.0.0.1')));
      expect(timedOut.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    }
  });
});
