import { ServiceProcess } from './support/service-process';
import { SseClient } from './support/sse-client';
import { createTestDatabase } from './support/test-database';

jest.setTimeout(90_000);

const WRITERS = 10;
const CHANGES_PER_WRITER = 24;
const PAGE_FOLLOWERS = 4;
/** How often each page follower goes back to a position it was given before. */
const RESUMES = 10;

/** Seeded pseudo-random numbers, so that a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

interface Page {
  events: Array<{ id: string; requestId: string }>;
  position: string;
}

/**
 * docs/extensions.md section 8, order and completeness: two instances on one database, writers
 * racing on both, and followers on both (streams, and pages of a few events that resume from
 * positions they were given before): each sees every change exactly once, in id order.
 */
describe('The change feed under concurrent writers on two instances (e2e)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let services: ServiceProcess[];

  beforeAll(async () => {
    database = await createTestDatabase();
    services = await ServiceProcess.instances(database.url);
  });
  afterAll(async () => {
    await Promise.all(services.map((service) => service.stop()));
    await database.drop();
  });

  const url = (i: number, path: string) => `${services[i % 2].baseUrl}${path}`;

  /** A change; its request id when it succeeded. */
  async function change(i: number, method: string, path: string, body: object) {
    const res = await fetch(url(i, path), {
      method,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    await res.text();
    if (res.status >= 500) throw new Error(`${method} ${path}: ${res.status}`);
    return res.ok ? res.headers.get('x-request-id')! : undefined;
  }

  /** One writer: its scope, then streams created and updated, on either instance by turns. */
  async function writer(w: number): Promise<string[]> {
    const made: string[] = [];
    const note = (id: string | undefined) => id && made.push(id);
    note(await change(w, 'POST', '/v1/scopes', { scopeName: `w${w}` }));
    for (let c = 1; c < CHANGES_PER_WRITER; c++) {
      const stream = `s${c % 4}`;
      note(
        c <= 4
          ? await change(w + c, 'POST', `/v1/scopes/w${w}/streams`, { streamName: stream })
          : await change(w + c, 'PUT', `/v1/scopes/w${w}/streams/${stream}`, {
              scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 + (c % 3) },
            }),
      );
    }
    return made;
  }

  /** Follows by pages of 1 to 5 events, on either instance, now and then resuming from a position it had. */
  async function pageFollower(seed: number, start: string, until: () => string | undefined) {
    const next = random(seed);
    const seen: Array<{ id: string; requestId: string }> = [];
    let position = start;
    let resumes = 0;
    for (let step = 0; ; step++) {
      const end = until();
      if (end !== undefined && position === end) return seen;
      if (seen.length > 2 && resumes < RESUMES && next() < 0.1) {
        // Resume from a position given before (a few events back), as after a lost connection.
        resumes++;
        const keep = Math.max(0, seen.length - 1 - Math.floor(next() * 12));
        seen.length = keep;
        position = keep === 0 ? start : seen[keep - 1].id;
      }
      const limit = 1 + Math.floor(next() * 5);
      const res = await fetch(url(step, `/v1/events?since=${position}&limit=${limit}&wait=1`));
      expect(res.status).toBe(200);
      const page = (await res.json()) as Page;
      expect(page.events.length).toBeLessThanOrEqual(limit);
      seen.push(...page.events.map(({ id, requestId }) => ({ id, requestId })));
      position = page.position;
    }
  }

  it('lets every follower see every change exactly once, in commit order, none missing', async () => {
    const start = ((await (await fetch(url(0, '/v1/events'))).json()) as Page).position;
    const streams = await Promise.all([
      SseClient.open(url(0, `/v1/events?since=${start}`)),
      SseClient.open(url(1, `/v1/events?since=${start}`)),
    ]);
    const writing: { end?: string } = {};
    const followers = Array.from({ length: PAGE_FOLLOWERS }, (_, f) =>
      pageFollower(f + 1, start, () => writing.end),
    );
    const made = (await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)))).flat();
    const end = String(BigInt(start) + BigInt(made.length));
    writing.end = end;
    expect(((await (await fetch(url(1, '/v1/events'))).json()) as Page).position).toBe(end);

    const expectedIds = made.map((_, i) => String(BigInt(start) + BigInt(i + 1)));
    const expectComplete = (seen: Array<{ id: string; requestId: string }>) => {
      expect(seen.map((e) => e.id)).toEqual(expectedIds);
      expect(new Set(seen.map((e) => e.requestId))).toEqual(new Set(made));
    };
    for (const seen of await Promise.all(followers)) expectComplete(seen);
    for (const stream of streams) {
      await stream.until((c) => c.events.length >= made.length, 60_000);
      expect(stream.events.map((e) => e.id)).toEqual(expectedIds);
      expectComplete(stream.data as Array<{ id: string; requestId: string }>);
      stream.close();
    }
  });
});
