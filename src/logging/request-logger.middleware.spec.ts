import express from 'express';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import request from 'supertest';
import { eventually } from '../../test/support/eventually';
import { startInProcessTracing } from '../../test/support/in-process-tracing';
import { LogCapture, LogLine } from '../../test/support/log-capture';
import { requestId } from '../http/request-id.middleware';
import type { RequestWithId } from '../http/request-context';
import { LogLevel } from '../config/app-config';
import { createLogger } from './logger';
import { requestLogger } from './request-logger.middleware';

/** Our edge's order (request id, then the log line), and a stand-in for the access guard; `/ping` is quiet. */
function loggedApp(level: LogLevel) {
  const out = new LogCapture();
  const app = express();
  app.use(requestId);
  app.use(requestLogger(createLogger(level, out), new Set(['/ping'])));
  app.use((req, _res, next) => {
    const principal = req.header('X-Test-Principal');
    if (principal) (req as RequestWithId).principal = principal;
    next();
  });
  app.get('/things/:id', (_req, res) => res.json({ ok: true }));
  app.get('/ping', (_req, res) => res.end());
  app.get('/broken', (_req, res) => res.sendStatus(500));
  app.get('/failing', (_req, res) => {
    res.status(201);
    res.emit('error', new Error('the response failed'));
    res.end();
  });
  // Never answers: the client gives up. Says when a request got there, past the logger.
  let reached!: (res: express.Response) => void;
  const hanging = new Promise<express.Response>((resolve) => (reached = resolve));
  app.get('/hanging', (_req, res) => reached(res));
  return { app, out, http: request(app), hanging };
}

describe('requestLogger', () => {
  const lineOf = async (out: LogCapture, reqId: string): Promise<LogLine[]> => {
    const written = () => Promise.resolve(out.lines.some((line) => line.reqId === reqId));
    await eventually(written, true);
    return out.lines.filter((line) => line.reqId === reqId);
  };

  it('writes one line per request with its id, route template, status, duration and client', async () => {
    const { out, http } = loggedApp('log');
    await http.get('/things/42?x=1').set('X-Request-Id', 'req-1').expect(200);
    const lines = await lineOf(out, 'req-1');
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'info',
        reqId: 'req-1',
        method: 'GET',
        route: '/things/:id',
        path: '/things/42',
        status: 200,
        durationMs: expect.any(Number),
        client: expect.stringMatching(/127\.0\.0\.1/),
        principal: 'anonymous',
        msg: 'GET /things/42 200',
      }),
    ]);
    expect(lines[0]).not.toHaveProperty('req');
    expect(lines[0]).not.toHaveProperty('res');
  });

  it('names the principal the authentication set', async () => {
    const { out, http } = loggedApp('log');
    await http.get('/things/1').set('X-Request-Id', 'req-2').set('X-Test-Principal', 'alice');
    expect(await lineOf(out, 'req-2')).toEqual([expect.objectContaining({ principal: 'alice' })]);
  });

  it('logs failures at error level', async () => {
    const { out, http } = loggedApp('log');
    await http.get('/broken').set('X-Request-Id', 'req-3').expect(500);
    expect(await lineOf(out, 'req-3')).toEqual([
      expect.objectContaining({ level: 'error', route: '/broken', status: 500 }),
    ]);
  });

  it('logs probes at debug level only', async () => {
    const quiet = loggedApp('log');
    await quiet.http.get('/ping').set('X-Request-Id', 'probe-1').expect(200);
    await quiet.http.get('/things/1').set('X-Request-Id', 'after-probe').expect(200);
    await lineOf(quiet.out, 'after-probe');
    expect(quiet.out.lines.filter((line) => line.reqId === 'probe-1')).toEqual([]);

    const verbose = loggedApp('debug');
    await verbose.http.get('/ping').set('X-Request-Id', 'probe-2').expect(200);
    expect(await lineOf(verbose.out, 'probe-2')).toEqual([
      expect.objectContaining({ level: 'debug', route: '/ping' }),
    ]);
  });

  it('never writes headers: credentials and cookies stay out', async () => {
    const { out, http } = loggedApp('verbose');
    await http
      .get('/things/1')
      .set('X-Request-Id', 'req-4')
      .set('Authorization', 'Basic YWxpY2U6czNjcjN0')
      .set('Cookie', 'session=s3cr3t-cookie');
    await lineOf(out, 'req-4');
    expect(out.text).not.toMatch(/YWxpY2U6czNjcjN0|s3cr3t/);
  });

  it('writes the fields in a fixed order, the request id first, and nothing else', async () => {
    const { out, http } = loggedApp('log');
    await http.get('/things/7').set('X-Request-Id', 'req-5').expect(200);
    await lineOf(out, 'req-5');
    const [line] = out.text.trim().split('\n');
    expect(Object.keys(JSON.parse(line) as LogLine)).toEqual([
      'level',
      'time',
      'pid',
      'hostname',
      'reqId',
      'method',
      'route',
      'path',
      'status',
      'durationMs',
      'client',
      'principal',
      'msg',
    ]);
  });

  it('names the client when the connection closes with the response', async () => {
    const { out, http } = loggedApp('log');
    await http.get('/things/1').set('X-Request-Id', 'req-6').set('Connection', 'close');
    expect(await lineOf(out, 'req-6')).toEqual([
      expect.objectContaining({ client: expect.stringMatching(/127\.0\.0\.1/), status: 200 }),
    ]);
  });

  it('logs a response that failed at error level, whatever its status', async () => {
    const { out, http } = loggedApp('log');
    await http.get('/failing').set('X-Request-Id', 'req-7');
    expect(await lineOf(out, 'req-7')).toEqual([
      expect.objectContaining({ level: 'error', status: 201, msg: 'GET /failing 201' }),
    ]);
  });

  it('marks the request whose client went away before the answer', async () => {
    const { app, out, hanging } = loggedApp('log');
    const server = app.listen(0);
    try {
      await new Promise((resolve) => server.once('listening', resolve));
      const { port } = server.address() as AddressInfo;
      const socket = connect(port, '127.0.0.1');
      socket.write('GET /hanging HTTP/1.1\r\nHost: x\r\nX-Request-Id: req-8\r\n\r\n');
      const res = await hanging;
      const closed = new Promise((resolve) => res.once('close', resolve));
      socket.destroy();
      // The logger heard 'close' before this listener, added after it.
      await closed;
      expect(await lineOf(out, 'req-8')).toEqual([
        expect.objectContaining({ level: 'info', route: '/hanging', aborted: true }),
      ]);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  describe('with traces on', () => {
    let tracing: ReturnType<typeof startInProcessTracing>;
    beforeAll(() => (tracing = startInProcessTracing()));
    afterAll(() => tracing.stop());

    /** As the HTTP instrumentation does: each request in a server span, active past it. */
    function tracedApp() {
      const out = new LogCapture();
      const spans = new Map<string, { traceId: string; spanId: string }>();
      const app = express();
      app.use((req, res, next) =>
        tracing.tracer.startActiveSpan('server', (span) => {
          spans.set(req.header('X-Request-Id') ?? '', span.spanContext());
          res.once('close', () => span.end());
          next();
        }),
      );
      app.use(requestId);
      app.use(requestLogger(createLogger('log', out)));
      app.get('/things/:id', (_req, res) => res.json({ ok: true }));
      return { out, spans, http: request(app) };
    }

    it("carries the request's trace and span ids, right after its request id", async () => {
      const { out, spans, http } = tracedApp();
      await http.get('/things/9').set('X-Request-Id', 'traced-1').expect(200);
      const [line] = await lineOf(out, 'traced-1');
      expect(line).toEqual(
        expect.objectContaining({
          trace_id: spans.get('traced-1')?.traceId,
          span_id: spans.get('traced-1')?.spanId,
        }),
      );
      expect(Object.keys(line).slice(4, 7)).toEqual(['reqId', 'trace_id', 'span_id']);
    });

    it('carries no trace fields for a request outside any span', async () => {
      const { out, http } = loggedApp('log');
      await http.get('/things/9').set('X-Request-Id', 'untraced-1').expect(200);
      const [line] = await lineOf(out, 'untraced-1');
      expect(line).not.toHaveProperty('trace_id');
      expect(line).not.toHaveProperty('span_id');
    });
  });
});
