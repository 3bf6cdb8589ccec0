import { Client } from 'pg';
import { Answer, ApiClient } from './support/api-client';
import { brokenInvariants } from './support/invariants';
import { ServiceProcess } from './support/service-process';
import { createTestDatabase } from './support/test-database';

jest.setTimeout(180_000);

/** What the tests read of an apply's answer. */
interface Planned {
  summary: Record<string, number>;
  planVersion: string;
}

const planned = (answer: Answer): Planned => answer.body as Planned;

/** docs/extensions.md section 5 under concurrency: two service processes on one database. */
describe('Declarative apply across two instances (e2e)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let services: ServiceProcess[];
  let sql: Client;

  let clients: ApiClient[];
  const apply = (client: ApiClient, document: unknown, headers?: Record<string, string>) =>
    client.call('POST', '/v1/apply', document, headers);
  const fixed = (minSegments: number) => ({ type: 'FIXED_NUM_SEGMENTS', minSegments });
  const names = (prefix: string, count: number): string[] =>
    Array.from({ length: count }, (_, i) => `${prefix}${i}`);

  beforeAll(async () => {
    database = await createTestDatabase();
    services = await ServiceProcess.instances(database.url);
    clients = services.map((service) => new ApiClient(service.baseUrl));
    sql = new Client({ connectionString: database.url });
    await sql.connect();
  });
  afterEach(async () => {
    expect(clients.flatMap((client) => client.serverErrors())).toEqual([]);
    expect(
      await brokenInvariants(async (text) => (await sql.query<Record<string, unknown>>(text)).rows),
    ).toEqual([]);
  });
  afterAll(async () => {
    await sql.end();
    await Promise.all(services.map((service) => service.stop()));
    await database.drop();
  });

  it('runs two applies of one document one after the other: the creates happen once', async () => {
    const [a, b] = clients;
    expect((await a.call('POST', '/v1/scopes', { scopeName: 'shared' })).status).toBe(201);
    const document = {
      scopes: [
        { scopeName: 'shared', streams: names('s', 30).map((streamName) => ({ streamName })) },
      ],
    };
    const answers = await Promise.all([apply(a, document), apply(b, document)]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    const creates = answers.map((answer) => planned(answer).summary.create).sort((x, y) => x - y);
    expect(creates).toEqual([0, 30]);
    const audited = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_events
        WHERE operation = 'createStream' AND resource LIKE 'prn::/scope:shared/%'`,
    );
    expect(audited.rows[0].n).toBe(30);
  });

  it('lets single edits and an apply interleave without losing either: the last to commit wins', async () => {
    const [a, b] = clients;
    const streams = names('e', 10);
    expect((await a.call('POST', '/v1/scopes', { scopeName: 'edited' })).status).toBe(201);
    const initial = {
      scopes: [{ scopeName: 'edited', streams: streams.map((streamName) => ({ streamName })) }],
    };
    expect((await apply(a, initial)).status).toBe(200);

    const document = {
      scopes: [
        {
          scopeName: 'edited',
          streams: streams.map((streamName) => ({ streamName, scalingPolicy: fixed(3) })),
        },
      ],
    };
    const edits = streams.map((name) =>
      b.call('PUT', `/v1/scopes/edited/streams/${name}`, { scalingPolicy: fixed(2) }),
    );
    const [applied, ...edited] = await Promise.all([apply(a, document), ...edits]);
    expect(applied.status).toBe(200);
    expect(edited.map((answer) => answer.status)).toEqual(streams.map(() => 200));

    // Whatever the order, each stream shows what its last audited change says.
    for (const name of streams) {
      const shown = await b.call('GET', `/v1/scopes/edited/streams/${name}`);
      const property = shown.body as { scalingPolicy: { minSegments: number } };
      const last = await sql.query<{ after: { scalingPolicy: { minSegments: number } } }>(
        `SELECT after FROM audit_events WHERE operation = 'updateStream' AND resource = $1
          ORDER BY id DESC LIMIT 1`,
        [`prn::/scope:edited/stream:${name}`],
      );
      expect(property.scalingPolicy.minSegments).toBe(last.rows[0].after.scalingPolicy.minSegments);
    }
  });

  it('lets exactly one of two applies with the same If-Match win', async () => {
    const [a, b] = clients;
    expect((await a.call('POST', '/v1/scopes', { scopeName: 'raced' })).status).toBe(201);
    const base = { scopes: [{ scopeName: 'raced', streams: [{ streamName: 'x' }] }] };
    expect((await apply(a, base)).status).toBe(200);
    const plan = await a.call('POST', '/v1/apply?dryRun=true', base);
    const version = planned(plan).planVersion;
    const wants = (minSegments: number) => ({
      scopes: [
        { scopeName: 'raced', streams: [{ streamName: 'x', scalingPolicy: fixed(minSegments) }] },
      ],
    });
    const answers = await Promise.all([
      apply(a, wants(2), { 'If-Match': version }),
      apply(b, wants(5), { 'If-Match': version }),
    ]);
    expect(answers.map((answer) => answer.status).sort((x, y) => x - y)).toEqual([200, 412]);
    const winner = answers[0].status === 200 ? 2 : 5;
    const shown = await a.call('GET', '/v1/scopes/raced/streams/x');
    expect((shown.body as { scalingPolicy: object }).scalingPolicy).toEqual(fixed(winner));
  });

  it("holds a scope's maxStreams against single creates racing an apply on the other instance", async () => {
    const [a, b] = clients;
    expect((await a.call('POST', '/v1/scopes', { scopeName: 'capped' })).status).toBe(201);
    const put = await a.call('PUT', '/v1/scopes/capped/policy', { maxStreams: 5 });
    expect(put.status).toBe(200);
    const document = {
      scopes: [
        { scopeName: 'capped', streams: names('a', 3).map((streamName) => ({ streamName })) },
      ],
    };
    const singles = names('s', 6).map((streamName) =>
      b.call('POST', '/v1/scopes/capped/streams', { streamName }),
    );
    const [applied, ...created] = await Promise.all([apply(a, document), ...singles]);
    const statuses = created.map((answer) => answer.status);
    expect(statuses.every((status) => status === 201 || status === 422)).toBe(true);
    const streams = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM streams WHERE scope_name = 'capped' AND name NOT LIKE '\\_%'`,
    );
    expect(streams.rows[0].n).toBeLessThanOrEqual(5);
    const made = statuses.filter((status) => status === 201).length;
    // The apply made all three or none, and the two together never passed the limit.
    expect(streams.rows[0].n).toBe(made + (applied.status === 200 ? 3 : 0));
    expect([200, 422]).toContain(applied.status);
  });
});
