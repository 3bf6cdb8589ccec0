import { randomBytes } from 'node:crypto';
import { UNMATCHED_ROUTE } from '../src/http/route-template';
import { ANONYMOUS } from '../src/audit/actor';
import { Operation } from '../src/common/operations';
import { METRICS_PATH } from '../src/metrics/metrics.controller';
import { basic, PASSWORD, writeAccounts } from './support/accounts';
import { uniqueName } from './support/factories';
import { LogLine, parseLogLines } from './support/log-capture';
import { freePort, ServiceProcess } from './support/service-process';
import { createTestDatabase } from './support/test-database';

/**
 * Observability: the built service logs JSON lines on stdout, one per request, and
 * no secret ever reaches them. The service runs at the most verbose level, so every line it
 * can write is searched.
 */
describe('Logs of the built service (e2e)', () => {
  const password = `pw-${randomBytes(8).toString('hex')}`;
  const credentials = Buffer.from(`alice:${password}`).toString('base64');
  const cookie = `cookie-${randomBytes(8).toString('hex')}`;
  const scopeName = uniqueName('logged');
  const statuses = new Map<string, number>();
  let output: string;
  let lines: LogLine[];

  beforeAll(async () => {
    const database = await createTestDatabase();
    const service = ServiceProcess.start({
      PORT: String(await freePort()),
      DATABASE_URL: database.url,
      LOG_LEVEL: 'verbose',
    });
    try {
      await service.ready();
      const send = async (id: string, path: string, init: RequestInit = {}) => {
        const headers = { 'X-Request-Id': id, ...(init.headers as Record<string, string>) };
        const res = await fetch(`${service.baseUrl}${path}`, { ...init, headers });
        await res.arrayBuffer();
        expect(res.headers.get('X-Request-Id')).toBe(id);
        statuses.set(id, res.status);
      };
      const secretHeaders = { Authorization: `Basic ${credentials}`, Cookie: `session=${cookie}` };
      await send('create', '/v1/scopes', {
        method: 'POST',
        headers: { ...secretHeaders, 'Content-Type': 'application/json' },
        body: JSON.stringify({ scopeName }),
      });
      await send('create-with-password', '/v1/scopes', {
        method: 'POST',
        headers: { ...secretHeaders, 'Content-Type': 'application/json' },
        body: JSON.stringify({ scopeName: uniqueName('other'), password }),
      });
      await send('text-with-password', '/v1/scopes', {
        method: 'POST',
        headers: { ...secretHeaders, 'Content-Type': 'text/plain' },
        body: `password=${password}`,
      });
      await send('query-with-password', `/v1/scopes?password=${password}`, {
        headers: secretHeaders,
      });
      await send('read', `/v1/scopes/${scopeName}`);
      await send('missing', `/v1/scopes/${uniqueName('missing')}`);
      await send('invalid', '/v1/scopes', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ scopeName: 'not a name!' }),
      });
      await send('unknown', `/v1/${uniqueName('nowhere')}/x`);
      await send('probe', '/ping');
      await send('scrape', METRICS_PATH);
    } finally {
      // Stopping flushes every line and ends the output.
      await service.stop();
      await database.drop();
    }
    output = service.output.join('');
    lines = parseLogLines(output);
  });

  const lineOf = (id: string): LogLine => {
    const found = lines.filter((line) => line.reqId === id);
    expect(found).toHaveLength(1);
    return found[0];
  };

  it("writes only JSON lines, Nest's own included", () => {
    expect(lines.length).toBeGreaterThan(10);
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 'info', context: 'NestApplication' }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({ context: 'Tributary', msg: expect.stringMatching(/^ready: API /) }),
    );
    for (const line of lines) {
      expect(line).toEqual(
        expect.objectContaining({ level: expect.any(String), time: expect.any(String) }),
      );
    }
  });

  it('writes one line per request, with the id the client sent', () => {
    expect(lineOf('create')).toEqual(
      expect.objectContaining({
        level: 'info',
        reqId: 'create',
        method: 'POST',
        route: '/v1/scopes',
        operation: Operation.createScope,
        path: '/v1/scopes',
        status: 201,
        durationMs: expect.any(Number),
        client: expect.stringMatching(/127\.0\.0\.1/),
        principal: ANONYMOUS,
        msg: 'POST /v1/scopes 201',
      }),
    );
    for (const [id, status] of statuses) expect([id, lineOf(id).status]).toEqual([id, status]);
  });

  it('names the route template, not the path, and a fixed label for unknown routes', () => {
    expect(lineOf('read')).toMatchObject({
      route: '/v1/scopes/:scopeName',
      path: `/v1/scopes/${scopeName}`,
    });
    expect(lineOf('unknown')).toMatchObject({ route: UNMATCHED_ROUTE, status: 404 });
    expect(lineOf('text-with-password')).toMatchObject({ route: '/v1/scopes', status: 415 });
  });

  it('names the operation of the handler that served each request, refused ones included', () => {
    expect(lineOf('read')).toMatchObject({ operation: Operation.getScope, status: 200 });
    expect(lineOf('missing')).toMatchObject({ operation: Operation.getScope, status: 404 });
    expect(lineOf('invalid')).toMatchObject({ operation: Operation.createScope, status: 400 });
    expect(lineOf('query-with-password')).toMatchObject({ operation: Operation.listScopes });
    // Routes outside the API document go by their handler's name, as in the audit trail.
    expect(lineOf('probe')).toMatchObject({ operation: 'ping' });
  });

  it('names no operation when no handler was reached', () => {
    expect(lineOf('unknown')).not.toHaveProperty('operation');
    // The body gate refuses before routing: the route it was meant for, but no handler.
    expect(lineOf('text-with-password')).not.toHaveProperty('operation');
  });

  it('logs probes and scrapes at debug level', () => {
    expect(lineOf('probe')).toMatchObject({ level: 'debug', route: '/ping' });
    expect(lineOf('scrape')).toMatchObject({ level: 'debug', route: METRICS_PATH });
  });

  it('never shows credentials, cookies or passwords, anywhere', () => {
    expect(output).toContain('create-with-password');
    expect(output).not.toContain(credentials);
    expect(output).not.toContain(password);
    expect(output).not.toContain(cookie);
  });
});

describe('Logs of the built service with authentication on (e2e)', () => {
  it('names the principal of authenticated requests, and never a password', async () => {
    const database = await createTestDatabase();
    const accounts = await writeAccounts({ admin: 'prn::*,READ_UPDATE' });
    const service = ServiceProcess.start({
      PORT: String(await freePort()),
      DATABASE_URL: database.url,
      AUTH_ENABLED: 'true',
      AUTH_ACCOUNTS_FILE: accounts,
    });
    try {
      await service.ready();
      const send = async (id: string, authorization: string) => {
        const res = await fetch(`${service.baseUrl}/v1/scopes`, {
          headers: { 'X-Request-Id': id, Authorization: authorization },
        });
        await res.arrayBuffer();
        return res.status;
      };
      expect(await send('as-admin', basic('admin'))).toBe(200);
      expect(await send('wrong-password', basic('admin', 'not-the-password'))).toBe(401);
    } finally {
      await service.stop();
      await database.drop();
    }
    const output = service.output.join('');
    const lines = parseLogLines(output);
    const lineOf = (id: string) => lines.find((line) => line.reqId === id);
    expect(lineOf('as-admin')).toMatchObject({
      principal: 'admin',
      operation: Operation.listScopes,
    });
    // Refused by the auth guard, after the handler was matched: its operation is known.
    expect(lineOf('wrong-password')).toMatchObject({
      principal: ANONYMOUS,
      status: 401,
      operation: Operation.listScopes,
    });
    expect(output).not.toContain(PASSWORD);
    expect(output).not.toContain('not-the-password');
    expect(output).not.toContain(basic('admin').slice('Basic '.length));
  });
});
