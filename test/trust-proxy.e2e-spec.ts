import { basic, writeAccounts } from './support/accounts';
import { eventually } from './support/eventually';
import { Answer, HttpForwarder, sendFrom } from './support/http-forwarder';
import { freePort, ServiceProcess } from './support/service-process';
import { createTestDatabase } from './support/test-database';

const WRONG = basic('admin', 'not-the-password');
const RIGHT = basic('admin');
const RATE_LIMIT = 12;

interface Deployment {
  service: ServiceProcess;
  port: number;
  balancer: HttpForwarder;
  stop(): Promise<void>;
}

/** The built service behind a load balancer of its own, with authentication on. */
async function deploy(databaseUrl: string, env: NodeJS.ProcessEnv): Promise<Deployment> {
  const port = await freePort();
  const service = ServiceProcess.start({
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    LOG_FORMAT: 'json',
    AUTH_ENABLED: 'true',
    AUTH_ACCOUNTS_FILE: await writeAccounts({ admin: 'prn::*,READ_UPDATE' }),
    AUTH_MAX_FAILURES: '5',
    RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
    ...env,
  });
  await service.ready();
  const balancer = await HttpForwarder.start(port);
  return {
    service,
    port,
    balancer,
    stop: async () => {
      await balancer.close();
      await service.stop();
    },
  };
}

/** Each test's clients have addresses of their own: no test sees another's counts. */
const through =
  (deployment: () => Deployment) =>
  (client: string, request: Parameters<typeof sendFrom>[2]): Promise<Answer> =>
    sendFrom(client, deployment().balancer.port, request);
const direct =
  (deployment: () => Deployment) =>
  (client: string, request: Parameters<typeof sendFrom>[2]): Promise<Answer> =>
    sendFrom(client, deployment().port, request);

const scopes = (authorization: string, headers: Record<string, string> = {}) => ({
  path: '/v1/scopes',
  headers: { authorization, ...headers },
});

async function statuses(send: () => Promise<Answer>, times: number): Promise<number[]> {
  const seen: number[] = [];
  for (let i = 0; i < times; i++) seen.push((await send()).status);
  return seen;
}

describe('Behind a load balancer (e2e)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  describe('with TRUST_PROXY naming the balancer', () => {
    let lb: Deployment;
    const viaBalancer = through(() => lb);
    const straight = direct(() => lb);

    beforeAll(async () => {
      lb = await deploy(database.url, { TRUST_PROXY: '127.0.0.1' });
    });
    afterAll(() => lb.stop());

    it('five failed logins from one forwarded client do not lock out another', async () => {
      const guesses = await statuses(() => viaBalancer('127.0.0.2', scopes(WRONG)), 6);
      expect(guesses).toEqual([401, 401, 401, 401, 401, 429]);
      expect((await viaBalancer('127.0.0.2', scopes(RIGHT))).status).toBe(429);
      expect((await viaBalancer('127.0.0.3', scopes(RIGHT))).status).toBe(200);
    });

    it('a forged X-Forwarded-For from an untrusted hop changes nothing', async () => {
      // Straight to the service, claiming to be 127.0.0.5: counted as 127.0.0.4, who it is.
      const forged = { 'x-forwarded-for': '127.0.0.5' };
      const guesses = await statuses(() => straight('127.0.0.4', scopes(WRONG, forged)), 6);
      expect(guesses).toEqual([401, 401, 401, 401, 401, 429]);
      expect((await viaBalancer('127.0.0.5', scopes(RIGHT))).status).toBe(200);
      expect((await straight('127.0.0.4', scopes(RIGHT))).status).toBe(429);
      // Through the balancer, a claim the client adds itself sits left of what the balancer
      // saw, beyond the trusted hop: ignored too.
      const spoof = { 'x-forwarded-for': '127.0.0.7' };
      const spoofed = await statuses(() => viaBalancer('127.0.0.6', scopes(WRONG, spoof)), 6);
      expect(spoofed).toEqual([401, 401, 401, 401, 401, 429]);
      expect((await viaBalancer('127.0.0.7', scopes(RIGHT))).status).toBe(200);
    });

    it('the rate limit counts each forwarded client on its own', async () => {
      const first = await statuses(() => viaBalancer('127.0.0.10', scopes(RIGHT)), RATE_LIMIT + 1);
      expect(first).toEqual([...Array<number>(RATE_LIMIT).fill(200), 429]);
      expect((await viaBalancer('127.0.0.11', scopes(RIGHT))).status).toBe(200);
    });

    it('audit rows and request log lines name the forwarded client, never a forged one', async () => {
      const create = (scopeName: string, headers: Record<string, string> = {}) => ({
        method: 'POST',
        path: '/v1/scopes',
        headers: { authorization: RIGHT, 'x-request-id': `proxied-${scopeName}`, ...headers },
        body: { scopeName },
      });
      expect((await viaBalancer('127.0.0.12', create('forwarded'))).status).toBe(201);
      const forged = { 'x-forwarded-for': '10.9.9.9' };
      expect((await straight('127.0.0.13', create('forged', forged))).status).toBe(201);

      const audit = await viaBalancer('127.0.0.14', { ...scopes(RIGHT), path: '/v1/audit' });
      const events = (
        JSON.parse(audit.body) as { auditEvents: { resource: string; clientAddress: string }[] }
      ).auditEvents.filter((event) => /scope:(forwarded|forged)$/.test(event.resource));
      expect(events.map(({ resource, clientAddress }) => [resource, clientAddress])).toEqual([
        ['prn::/scope:forged', '127.0.0.13'],
        ['prn::/scope:forwarded', '127.0.0.12'],
      ]);

      const logged = () =>
        lb.service.lines
          .map((line) => JSON.parse(line) as { reqId?: string; client?: string })
          .filter((entry) => entry.reqId?.startsWith('proxied-'))
          .map((entry) => [entry.reqId, entry.client]);
      await eventually(() => Promise.resolve(logged().length), 2);
      expect(logged()).toEqual([
        ['proxied-forwarded', '127.0.0.12'],
        ['proxied-forged', '127.0.0.13'],
      ]);
    });

    it('builds links that no forwarded host or scheme can redirect', async () => {
      const create = (scopeName: string) => ({
        method: 'POST',
        path: '/v1/scopes',
        headers: { authorization: RIGHT },
        body: { scopeName },
      });
      await viaBalancer('127.0.0.15', create('link-a'));
      await viaBalancer('127.0.0.15', create('link-b'));
      const page = await viaBalancer('127.0.0.15', {
        ...scopes(RIGHT, { host: 'evil.example', 'x-forwarded-host': 'evil.example' }),
        path: '/v1/scopes?limit=1',
      });
      expect(page.status).toBe(200);
      expect(page.headers.link).toMatch(
        /^<\/v1\/scopes\?limit=1&continuationToken=[^>]+>; rel="next"$/,
      );
      expect(page.headers.location).toBeUndefined();
    });
  });

  describe('without TRUST_PROXY (the default)', () => {
    let lb: Deployment;
    const viaBalancer = through(() => lb);

    beforeAll(async () => {
      lb = await deploy(database.url, {});
    });
    afterAll(() => lb.stop());

    it('sees the balancer as the one client: one guesser locks everyone out', async () => {
      const guesses = await statuses(() => viaBalancer('127.0.0.20', scopes(WRONG)), 5);
      expect(guesses).toEqual([401, 401, 401, 401, 401]);
      expect((await viaBalancer('127.0.0.21', scopes(RIGHT))).status).toBe(429);
    });
  });
});
