import { randomBytes } from 'node:crypto';
import { eventually } from './support/eventually';
import { uniqueName } from './support/factories';
import { LogLine } from './support/log-capture';
import { attributeOf, OtlpReceiver, ReceivedSpan } from './support/otlp-receiver';
import { freePort, ServiceProcess } from './support/service-process';
import { createTestDatabase } from './support/test-database';

const SERVER = 2;
/** Where the SQL text is, by the semantic conventions' current name or the older one. */
const sqlTextOf = (span: ReceivedSpan) =>
  attributeOf(span.attributes, 'db.query.text') ?? attributeOf(span.attributes, 'db.statement');
const serviceNameOf = (span: ReceivedSpan) => attributeOf(span.resource, 'service.name');

/** The settings of a service that sends its traces to `receiver` as OTLP/JSON. */
const tracingTo = (receiver: OtlpReceiver, more: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
  OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
  OTEL_BSP_SCHEDULE_DELAY: '100',
  ...more,
});

/** The service's JSON log lines (its output may hold other lines, such as NODE_DEBUG's). */
const logLinesOf = (service: ServiceProcess): LogLine[] =>
  service.lines.filter((line) => line.startsWith('{"level"')).map((l) => JSON.parse(l) as LogLine);

const requestLine = (service: ServiceProcess, requestId: string): LogLine | undefined =>
  logLinesOf(service).find((line) => line.reqId === requestId);

const createScope = (baseUrl: string, scopeName: string, headers: Record<string, string> = {}) =>
  fetch(`${baseUrl}/v1/scopes`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ scopeName }),
  });

/**
 * Traces of the built service: with an OTLP endpoint, a request's server span continues the
 * caller's trace, its handler and SQL statements are in it, and its log line names it; with
 * none, the SDK is not even loaded. A receiver started here plays the collector.
 */
describe('Traces of the built service (e2e)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const started: { service?: ServiceProcess; receiver?: OtlpReceiver }[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    for (const { service, receiver } of started) {
      await service?.stop('SIGKILL');
      await receiver?.stop();
    }
    await database.drop();
  });

  async function startService(env: NodeJS.ProcessEnv): Promise<ServiceProcess> {
    const service = ServiceProcess.start({
      PORT: String(await freePort()),
      DATABASE_URL: database.url,
      ...env,
    });
    started.push({ service });
    await service.ready();
    return service;
  }

  async function startReceiver(options?: { answering: boolean }): Promise<OtlpReceiver> {
    const receiver = await OtlpReceiver.start(options);
    started.push({ receiver });
    return receiver;
  }

  describe('with OTEL_EXPORTER_OTLP_ENDPOINT and OTEL_SERVICE_NAME', () => {
    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');
    const scopeName = uniqueName('traced');
    const requestId = uniqueName('traced-request');
    const listRequestId = uniqueName('listing');
    const secret = randomBytes(8).toString('hex');
    let service: ServiceProcess;
    let receiver: OtlpReceiver;
    let trace: ReceivedSpan[];
    let server: ReceivedSpan;

    beforeAll(async () => {
      receiver = await startReceiver();
      service = await startService(tracingTo(receiver, { OTEL_SERVICE_NAME: 'tributary-e2e' }));
      const res = await createScope(service.baseUrl, scopeName, {
        traceparent: `00-${traceId}-${callerSpanId}-01`,
        'X-Request-Id': requestId,
      });
      expect(res.status).toBe(201);
      const listed = await fetch(`${service.baseUrl}/v1/scopes?limit=1&password=${secret}`, {
        headers: { 'X-Request-Id': listRequestId },
      });
      expect(listed.status).toBe(200);
      // The server span ends with the response, its statements before it.
      const serverSpansOf = () =>
        Promise.resolve(
          [traceId, requestLine(service, listRequestId)?.trace_id].every((id) =>
            receiver.spans.some((span) => span.traceId === id && span.kind === SERVER),
          ),
        );
      expect(await eventually(serverSpansOf, true)).toBe(true);
      trace = receiver.spans.filter((span) => span.traceId === traceId);
      server = trace.find((span) => span.kind === SERVER)!;
    });

    it("continues the caller's trace: the server span's parent is the traceparent's span", () => {
      expect(server).toEqual(
        expect.objectContaining({ traceId, parentSpanId: callerSpanId, name: 'POST /v1/scopes' }),
      );
      expect(attributeOf(server.attributes, 'http.route')).toBe('/v1/scopes');
      expect(receiver.requests[0]).toEqual(
        expect.objectContaining({
          method: 'POST',
          path: '/v1/traces',
          contentType: 'application/json',
        }),
      );
    });

    it("puts the route's handler and every SQL statement under the server span", () => {
      const handler = trace.find((span) => span.scope.endsWith('instrumentation-express'));
      expect(handler).toEqual(expect.objectContaining({ parentSpanId: server.spanId }));
      expect(attributeOf(handler!.attributes, 'http.route')).toBe('/v1/scopes');

      const statements = trace.filter((span) => span.scope.endsWith('instrumentation-pg'));
      expect(statements.map(sqlTextOf)).toEqual(
        expect.arrayContaining([
          // The BEGIN travels with the first statement (docs/ARCHITECTURE.md).
          expect.stringMatching(/^START TRANSACTION;\nINSERT INTO "scopes"/),
          // The audit row, then the change-feed event, travel with the COMMIT (docs/ARCHITECTURE.md).
          expect.stringMatching(
            /^INSERT INTO audit_events\s[^]*;\nWITH feed_next AS [^]*;\nCOMMIT$/,
          ),
        ]),
      );
      // Each statement's chain of parents leads to the server span, within the trace.
      const byId = new Map(trace.map((span) => [span.spanId, span]));
      for (const statement of statements) {
        let ancestor: ReceivedSpan | undefined = statement;
        while (ancestor && ancestor !== server) ancestor = byId.get(ancestor.parentSpanId ?? '');
        expect(ancestor).toBe(server);
      }
    });

    it('records SQL text with its placeholders, never the parameters', () => {
      const insert = trace.find((span) => /INSERT INTO "scopes"/.test(String(sqlTextOf(span))));
      expect(sqlTextOf(insert!)).toMatch(/\$1/);
      const sqlAttributes = JSON.stringify(
        trace.filter((span) => span.scope.endsWith('instrumentation-pg')).map((s) => s.attributes),
      );
      expect(sqlAttributes).not.toContain(scopeName);
      // Nor anywhere else in what was sent: the name was in the body only.
      expect(receiver.text).not.toContain(scopeName);
    });

    it("records a query string's parameter names, never their values", () => {
      const listTraceId = requestLine(service, listRequestId)?.trace_id;
      const list = receiver.spans.find(
        (span) => span.traceId === listTraceId && span.kind === SERVER,
      );
      expect(attributeOf(list!.attributes, 'url.query')).toBe('limit=REDACTED&password=REDACTED');
      expect(receiver.text).not.toContain(secret);
    });

    it('names the service by OTEL_SERVICE_NAME', () => {
      expect(new Set(trace.map(serviceNameOf))).toEqual(new Set(['tributary-e2e']));
    });

    it("writes the server span's trace and span ids on the request's log line", () => {
      expect(requestLine(service, requestId)).toEqual(
        expect.objectContaining({ trace_id: traceId, span_id: server.spanId, status: 201 }),
      );
    });
  });

  it('named tributary by default, sends the spans still batched when stopped by SIGTERM', async () => {
    const receiver = await startReceiver();
    // Batched for ten minutes: only the shutdown sends them.
    const service = await startService({
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.endpoint}/v1/traces`,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '600000',
    });
    const requestId = uniqueName('untraced-caller');
    expect(
      (await createScope(service.baseUrl, uniqueName('s'), { 'X-Request-Id': requestId })).status,
    ).toBe(201);
    expect(receiver.requests).toEqual([]);

    expect(['SIGTERM', 0]).toContain(await service.stop());
    const server = receiver.spans.find(
      (span) => span.kind === SERVER && span.name === 'POST /v1/scopes',
    );
    // A request that came without traceparent starts a trace of its own.
    expect(server?.parentSpanId ?? '').toBe('');
    expect(serviceNameOf(server!)).toBe('tributary');
    expect(requestLine(service, requestId)).toEqual(
      expect.objectContaining({ trace_id: server!.traceId, span_id: server!.spanId }),
    );
  });

  it('stops in bounded time when the collector takes the spans and never answers', async () => {
    const receiver = await startReceiver({ answering: false });
    // Every timeout of the SDK's own longer than the test: only the service's bound ends it.
    const service = await startService(
      tracingTo(receiver, {
        OTEL_BSP_SCHEDULE_DELAY: '600000',
        OTEL_BSP_EXPORT_TIMEOUT: '600000',
        OTEL_EXPORTER_OTLP_TIMEOUT: '600000',
      }),
    );
    expect((await createScope(service.baseUrl, uniqueName('s'))).status).toBe(201);
    service.signal('SIGTERM');
    // Not killed by `exited`'s own limit (which answers SIGKILL): the service ended itself.
    expect(['SIGTERM', 0]).toContain(await service.exited(30_000));
    expect(receiver.requests.map((request) => request.path)).toEqual(['/v1/traces']);
  });

  it('reports what the SDK cannot use (a sampler, a collector) in its log, and serves all the same', async () => {
    const service = await startService({
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${await freePort()}`,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_TRACES_SAMPLER: 'sometimes',
    });
    // Said as the SDK started, before the service's log existed.
    expect(logLinesOf(service)).toContainEqual(
      expect.objectContaining({
        context: 'OpenTelemetry',
        msg: expect.stringContaining('OTEL_TRACES_SAMPLER') as unknown,
      }),
    );
    expect((await createScope(service.baseUrl, uniqueName('s'))).status).toBe(201);
    // The exporter tries again a few times before it gives the batch up.
    const reported = () =>
      Promise.resolve(
        logLinesOf(service).some(
          (line) =>
            line.context === 'OpenTelemetry' &&
            line.level === 'error' &&
            String(line.msg).includes('ECONNREFUSED'),
        ),
      );
    expect(await eventually(reported, true, { attempts: 600 })).toBe(true);
    expect((await fetch(`${service.baseUrl}/v1/scopes`)).status).toBe(200);
  });

  it('with OTEL_TRACES_EXPORTER=none, sends nothing to the endpoint it is given', async () => {
    const receiver = await startReceiver();
    const service = await startService(tracingTo(receiver, { OTEL_TRACES_EXPORTER: 'none' }));
    const requestId = uniqueName('off');
    const traceparent = `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`;
    const res = await createScope(service.baseUrl, uniqueName('s'), {
      traceparent,
      'X-Request-Id': requestId,
    });
    expect(res.status).toBe(201);
    expect(['SIGTERM', 0]).toContain(await service.stop());
    expect(receiver.requests).toEqual([]);
    expect(requestLine(service, requestId)).not.toHaveProperty('trace_id');
  });

  it('with no OTEL setting, loads no OpenTelemetry SDK package and its lines carry no trace ids', async () => {
    // The module loader's own account of every file it loads.
    const service = await startService({ NODE_DEBUG: 'module' });
    const requestId = uniqueName('plain');
    expect(
      (await createScope(service.baseUrl, uniqueName('s'), { 'X-Request-Id': requestId })).status,
    ).toBe(201);
    expect(['SIGTERM', 0]).toContain(await service.stop());

    const loaded = service.lines.filter((line) => /^MODULE \d+: load "/.test(line));
    expect(loaded.some((line) => line.includes('/node_modules/pg/'))).toBe(true);
    // The API alone (a no-op without the SDK) is what the log line asks for its span.
    expect(loaded.filter((line) => /\/node_modules\/@opentelemetry\/(?!api\/)/.test(line))).toEqual(
      [],
    );
    const line = requestLine(service, requestId);
    expect(line).toEqual(expect.objectContaining({ status: 201 }));
    expect(line).not.toHaveProperty('trace_id');
    expect(line).not.toHaveProperty('span_id');
  });
});
