import { AddressInfo, connect, Socket } from 'node:net';
import { UNMATCHED_ROUTE } from '../src/http/route-template';
import { Operation } from '../src/common/operations';
import { METRICS_PATH } from '../src/metrics/metrics.controller';
import { DURATION_BUCKETS, MetricsService } from '../src/metrics/metrics.service';
import { basic, writeAccounts } from './support/accounts';
import { eventually } from './support/eventually';
import { createScope, uniqueName } from './support/factories';
import { parseSamples, Sample, samplesOf, valueOf } from './support/prometheus';
import { SseClient } from './support/sse-client';
import { startTestApp, TestApp } from './support/test-app';

/** Observability: Prometheus metrics at /metrics. */
describe('Metrics (e2e)', () => {
  let t: TestApp;
  const scrape = async (app: TestApp = t): Promise<Sample[]> => {
    const res = await app.http
      .get(METRICS_PATH)
      .expect(200)
      .expect('Content-Type', /^text\/plain; version=0\.0\.4/);
    return parseSamples(res.text);
  };

  beforeAll(async () => {
    t = await startTestApp();
    // Listening: a request that never finishes and an event stream need a real socket.
    await t.app.listen(0, '127.0.0.1');
  });
  afterAll(() => t.close());
  const port = () => (t.app.getHttpServer().address() as AddressInfo).port;

  describe('after traffic', () => {
    let samples: Sample[];
    let scopeName: string;

    beforeAll(async () => {
      scopeName = await createScope(t.http);
      await createScope(t.http);
      await createScope(t.http);
      await t.http
        .post(`/v1/scopes/${scopeName}/streams`)
        .send({ streamName: 'orders' })
        .expect(201);
      await t.http.get(`/v1/scopes/${scopeName}/streams/orders`).expect(200);
      await t.http.get(`/v1/scopes/${uniqueName('missing')}`).expect(404);
      await t.http.get('/v1/no/such/route').expect(404);
      await t.http.post('/v1/scopes').send({ scopeName: 'not a name!' }).expect(400);
      await t.http.post('/v1/scopes').set('Content-Type', 'text/plain').send('x').expect(415);
      await scrape(); // scrapes are not counted
      samples = await scrape();
    });

    /** The count of exactly these labels; no operation means a series without that label. */
    const requests = (method: string, route: string, status: number, operation?: string) =>
      valueOf(samples, 'http_requests_total', {
        method,
        route,
        status: String(status),
        ...(operation ? { operation } : {}),
      });

    it('counts requests by method, route template, operation and status', () => {
      expect(requests('POST', '/v1/scopes', 201, Operation.createScope)).toBe(3);
      expect(requests('POST', '/v1/scopes/:scopeName/streams', 201, Operation.createStream)).toBe(
        1,
      );
      expect(
        requests('GET', '/v1/scopes/:scopeName/streams/:streamName', 200, Operation.getStream),
      ).toBe(1);
      expect(requests('GET', '/v1/scopes/:scopeName', 404, Operation.getScope)).toBe(1);
      expect(requests('POST', '/v1/scopes', 400, Operation.createScope)).toBe(1);
      // Refused by the body gate before routing: under the route it was meant for, but no
      // handler was reached, so no operation.
      expect(requests('POST', '/v1/scopes', 415)).toBe(1);
      expect(requests('GET', UNMATCHED_ROUTE, 404)).toBe(1);
    });

    it('labels by the operation of the handler that served the request', () => {
      const operations = samplesOf(samples, 'http_requests_total').map((s) => s.labels.operation);
      expect([...new Set(operations)].sort()).toEqual(
        [
          Operation.createScope,
          Operation.createStream,
          Operation.getStream,
          Operation.getScope,
          undefined,
        ].sort(),
      );
    });

    it('labels by route template only: no raw path, and scrapes left out', () => {
      const routes = new Set(samplesOf(samples, 'http_requests_total').map((s) => s.labels.route));
      expect([...routes].sort()).toEqual(
        [
          '/v1/scopes',
          '/v1/scopes/:scopeName',
          '/v1/scopes/:scopeName/streams',
          '/v1/scopes/:scopeName/streams/:streamName',
          UNMATCHED_ROUTE,
        ].sort(),
      );
      expect(
        samples.filter((s) => Object.values(s.labels).some((v) => v.includes(scopeName))),
      ).toEqual([]);
    });

    it('keeps a latency histogram with the same labels', () => {
      const labels = {
        method: 'POST',
        route: '/v1/scopes',
        operation: Operation.createScope,
        status: '201',
      };
      const buckets = samplesOf(samples, 'http_request_duration_seconds_bucket', labels);
      expect(buckets.map((b) => b.labels.le)).toEqual([...DURATION_BUCKETS.map(String), '+Inf']);
      const counts = buckets.map((b) => b.value);
      expect(counts).toEqual([...counts].sort((a, b) => a - b));
      expect(counts.at(-1)).toBe(3);
      expect(valueOf(samples, 'http_request_duration_seconds_count', labels)).toBe(3);
      expect(valueOf(samples, 'http_request_duration_seconds_sum', labels)).toBeGreaterThan(0);
    });

    it('shows no request in flight when none is', () => {
      expect(valueOf(samples, 'http_requests_in_flight')).toBe(0);
    });

    it("reads the database pool's use at scrape time", () => {
      const total = valueOf(samples, 'tributary_db_pool_connections')!;
      const idle = valueOf(samples, 'tributary_db_pool_idle_connections')!;
      expect(total).toBeGreaterThanOrEqual(1);
      expect(idle).toBeGreaterThanOrEqual(0);
      expect(idle).toBeLessThanOrEqual(total);
      expect(valueOf(samples, 'tributary_db_pool_waiting_requests')).toBe(0);
      expect(valueOf(samples, 'tributary_db_pool_max_connections')).toBe(10);
    });

    it("adds the process' default metrics", () => {
      for (const name of [
        'process_cpu_user_seconds_total',
        'process_resident_memory_bytes',
        'process_start_time_seconds',
        'nodejs_heap_size_used_bytes',
        'nodejs_eventloop_lag_seconds',
        'nodejs_active_handles_total',
      ]) {
        expect([name, valueOf(samples, name)]).toEqual([name, expect.any(Number)]);
      }
    });
  });

  it('counts a request in flight until it ends, even when the client goes away', async () => {
    const inFlight = async () => valueOf(await scrape(), 'http_requests_in_flight');
    // A body that never finishes keeps its request in flight.
    const socket: Socket = connect(port(), '127.0.0.1', () =>
      socket.write(
        'POST /v1/scopes HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
          'Content-Length: 100\r\n\r\n{"scopeName"',
      ),
    );
    socket.on('error', () => undefined);
    try {
      expect(await eventually(inFlight, 1)).toBe(1);
    } finally {
      socket.destroy();
    }
    expect(await eventually(inFlight, 0)).toBe(0);
  });

  it('counts the events the change feed delivers, and shows its streams against their limit', async () => {
    const feedSamples = async () => {
      const samples = await scrape();
      return {
        page: valueOf(samples, 'tributary_events_delivered_total', { via: 'page' }) ?? 0,
        stream: valueOf(samples, 'tributary_events_delivered_total', { via: 'stream' }) ?? 0,
        openStreams: valueOf(samples, 'tributary_events_open_streams'),
        maxStreams: valueOf(samples, 'tributary_events_max_streams'),
        longPolls: valueOf(samples, 'tributary_events_long_polls'),
        maxLongPolls: valueOf(samples, 'tributary_events_max_long_polls'),
      };
    };
    const before = await feedSamples();
    const since = ((await t.http.get('/v1/events').expect(200)).body as { position: string })
      .position;
    await createScope(t.http);
    await createScope(t.http);
    const page = await t.http.get(`/v1/events?since=${since}`).expect(200);
    expect(page.body.events).toHaveLength(2);
    const stream = await SseClient.open(`http://127.0.0.1:${port()}/v1/events?since=${since}`);
    try {
      await stream.until((client) => client.events.length === 2);
      const during = await feedSamples();
      expect(during).toEqual({
        page: before.page + 2,
        stream: before.stream + 2,
        openStreams: 1,
        maxStreams: 1000,
        longPolls: 0,
        maxLongPolls: 1000,
      });
    } finally {
      stream.close();
    }
    expect(await eventually(async () => (await feedSamples()).openStreams, 0)).toBe(0);
  });

  it('counts what reports of load did, by outcome, and not what a dry run would do', async () => {
    const outcome = async (name: string) =>
      valueOf(await scrape(), 'tributary_autoscale_outcomes_total', { outcome: name }) ?? 0;
    const scope = await createScope(t.http);
    await t.http
      .post(`/v1/scopes/${scope}/streams`)
      .send({
        streamName: 'loaded',
        scalingPolicy: {
          type: 'BY_RATE_IN_EVENTS_PER_SEC',
          targetRate: 10,
          scaleFactor: 2,
          minSegments: 1,
        },
      })
      .expect(201);
    const report = (segment: number, since: number) => ({
      segment,
      since,
      twoMinuteRate: 1,
      fiveMinuteRate: 1,
      tenMinuteRate: 1,
      twentyMinuteRate: 1,
    });
    const before = { none: await outcome('none'), ignored: await outcome('ignored') };
    const body = { reports: [report(0, Date.now()), report(9, Date.now())] };
    const path = `/v1/scopes/${scope}/streams/loaded/load`;
    await t.http.post(`${path}?dryRun=true`).send(body).expect(200);
    await t.http.post(path).send(body).expect(200);
    expect({ none: await outcome('none'), ignored: await outcome('ignored') }).toEqual({
      none: before.none + 1,
      ignored: before.ignored + 1,
    });
  });

  it('reports the readiness and the database reachability that /readyz sees', async () => {
    await t.http.get('/readyz').expect(200);
    const samples = await scrape();
    expect(valueOf(samples, 'tributary_ready')).toBe(1);
    expect(valueOf(samples, 'tributary_database_up')).toBe(1);
  });

  describe('with authentication', () => {
    let secured: TestApp;

    beforeAll(async () => {
      const file = await writeAccounts({ admin: 'prn::*,READ_UPDATE', nobody: 'prn::/x,READ' });
      secured = await startTestApp({
        AUTH_ENABLED: 'true',
        AUTH_ACCOUNTS_FILE: file,
        AUTH_MAX_FAILURES: '3',
      });
    });
    afterAll(() => secured.close());

    it('shows what the auth guard and the failed-login limiter report', async () => {
      const scopes = () => secured.http.get('/v1/scopes');
      // A success first: refusals after it are the only failures of this client.
      await scopes().set('Authorization', basic('admin')).expect(200);
      await secured.http.post('/v1/scopes').set('Authorization', basic('nobody')).expect(403);
      await scopes().expect(401);
      await scopes().set('Authorization', basic('admin', 'wrong')).expect(401);
      await scopes().set('Authorization', basic('nobody', 'wrong')).expect(401);
      // Without credentials: refused, but not a failed login (no 429 from it).
      await scopes().expect(401);
      await scopes().set('Authorization', basic('ghost', 'wrong')).expect(401);
      await scopes().set('Authorization', basic('admin')).expect(429);
      const samples = await scrape(secured);
      const failures = (reason: string) =>
        valueOf(samples, 'tributary_auth_failures_total', { reason });
      expect(failures('missing_credentials')).toBe(2);
      expect(failures('invalid_credentials')).toBe(3);
      expect(failures('forbidden')).toBe(1);
      expect(valueOf(samples, 'tributary_rate_limited_total')).toBe(1);
      // Refused by a guard after the handler was matched: counted under its operation.
      const refused = (operation: string, status: number) =>
        samplesOf(samples, 'http_requests_total', { operation, status: String(status) })
          .map((s) => s.value)
          .reduce((sum, value) => sum + value, 0);
      expect(refused(Operation.listScopes, 401)).toBe(5);
      expect(refused(Operation.createScope, 403)).toBe(1);
      expect(refused(Operation.listScopes, 429)).toBe(1);
    });
  });

  describe('turned off', () => {
    let off: TestApp;

    beforeAll(async () => {
      off = await startTestApp({ METRICS_ENABLED: 'false' });
    });
    afterAll(() => off.close());

    it('has no /metrics route, and still serves the API', async () => {
      await off.http.get(METRICS_PATH).expect(404);
      await createScope(off.http);
    });

    it("never counts into another application's registry", async () => {
      const created = {
        method: 'POST',
        route: '/v1/scopes',
        operation: Operation.createScope,
        status: '201',
      };
      const before = valueOf(await scrape(), 'http_requests_total', created);
      await createScope(off.http);
      const after = valueOf(await scrape(), 'http_requests_total', created);
      expect(after).toBe(before);
      expect(
        await off.app.get(MetricsService).registry.getSingleMetricAsString('http_requests_total'),
      ).not.toMatch(/^http_requests_total\{/m);
    });
  });
});
