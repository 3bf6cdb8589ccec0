/**
 * The cost of bearer tokens: get-stream with a bearer token of a real provider (`oidc-provider`
 * in this process) against the same read with authentication off, and with HTTP Basic for
 * comparison, measured in the same run as the service's own CPU time per request. Two instances of
 * the same build on one database: one with AUTH_ENABLED=false, one with accounts and
 * AUTH_OIDC_ISSUER. Rounds alternate between them so that the machine's load falls on both
 * alike; the figures are the medians of the rounds. The provider's key set must not be asked for
 * while measuring (keys are cached: no network per request).
 *
 *   npm run bench:bearer [-- --rounds 5 --seconds 5]
 *
 * Needs a PostgreSQL server (BENCH_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/postgres)
 * where it may create a database `tributary_bench_*`, dropped at the end.
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { basic, bearer, writeAccounts, writeGroupAcls } from '../test/support/accounts';
import { AUDIENCE, TestOidcProvider } from '../test/support/oidc-provider';
import { freePort, ServiceProcess } from '../test/support/service-process';
import { BenchDatabase } from './support/database';
import { measure } from './support/load';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
  },
});

const SCOPE = 'bench-auth';
const STREAM = 'orders';
const PATH = `/v1/scopes/${SCOPE}/streams/${STREAM}`;

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

async function main(): Promise<void> {
  const rounds = Number(args.rounds);
  const load = {
    connections: Number(args.connections),
    warmupSeconds: 2,
    seconds: Number(args.seconds),
  };
  const database = await BenchDatabase.create(
    process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  );
  const provider = await TestOidcProvider.start({
    clients: { 'bench-client': { groups: ['readers'] } },
  });
  const common = { DATABASE_URL: database.url, LOG_LEVEL: 'warn' };
  const open = ServiceProcess.start(
    { ...common, PORT: String(await freePort()) },
    { stdoutFile: '/dev/null' },
  );
  const secured = ServiceProcess.start(
    {
      ...common,
      PORT: String(await freePort()),
      AUTH_ENABLED: 'true',
      AUTH_ACCOUNTS_FILE: await writeAccounts({ reader: `prn::/scope:${SCOPE}/*,READ` }),
      AUTH_GROUP_ACLS_FILE: await writeGroupAcls({ readers: `prn::/scope:${SCOPE}/*,READ` }),
      AUTH_OIDC_ISSUER: provider.issuer,
      AUTH_OIDC_AUDIENCE: AUDIENCE,
    },
    { stdoutFile: '/dev/null' },
  );
  try {
    await Promise.all([open.ready(), secured.ready()]);
    for (const [path, body] of [
      ['/v1/scopes', { scopeName: SCOPE }],
      [`/v1/scopes/${SCOPE}/streams`, { streamName: STREAM }],
    ] as const) {
      const res = await fetch(`${open.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (res.status !== 201) throw new Error(`${path}: ${res.status}`);
    }
    const token = await provider.clientToken('bench-client');
    const scenarios = {
      'auth off': { service: open, authorization: undefined },
      'bearer token': { service: secured, authorization: bearer(token) },
      'HTTP Basic': { service: secured, authorization: basic('reader') },
    };
    for (const { service, authorization } of Object.values(scenarios)) {
      const res = await fetch(`${service.baseUrl}${PATH}`, {
        headers: authorization ? { Authorization: authorization } : {},
      });
      if (res.status !== 200) throw new Error(`${service.baseUrl}${PATH}: ${res.status}`);
    }

    const requestOf = (authorization: string | undefined) => {
      const headers = {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(authorization && { authorization }),
      };
      return () => ({ method: 'GET' as const, path: PATH, headers });
    };
    // JIT and pools first, on each read, so that no round measures a cold server.
    for (const { service, authorization } of Object.values(scenarios)) {
      await measure(service.baseUrl, requestOf(authorization), service.pid, {
        ...load,
        warmupSeconds: 8,
        seconds: 1,
      });
    }

    const cpu: Record<string, number[]> = {};
    const rps: Record<string, number[]> = {};
    const jwksBefore = provider.jwksRequests;
    const loads: number[] = [];
    for (let round = 0; round < rounds; round++) {
      for (const [name, { service, authorization }] of Object.entries(scenarios)) {
        const result = await measure(service.baseUrl, requestOf(authorization), service.pid, load);
        if (result.failures > 0) {
          throw new Error(
            `${name}: ${result.failures} failures ${JSON.stringify(result.statusCodes)}`,
          );
        }
        (cpu[name] ??= []).push(result.cpuMicrosPerRequest);
        (rps[name] ??= []).push(result.requestsPerSecond);
        loads.push(loadavg()[0]);
      }
    }
    const jwksDuring = provider.jwksRequests - jwksBefore;

    console.log(
      `get-stream, ${rounds} alternating rounds of ${load.seconds} s at ${load.connections} connections; ` +
        `load average (1 min) during the run ${Math.min(...loads).toFixed(2)}-${Math.max(...loads).toFixed(2)}`,
    );
    console.log('| read | service CPU µs/request (median) | rounds | requests/s (median) |');
    console.log('|---|--:|---|--:|');
    for (const name of Object.keys(scenarios)) {
      console.log(
        `| ${name} | ${median(cpu[name]).toFixed(0)} | ${cpu[name].map((v) => v.toFixed(0)).join(', ')} | ${median(rps[name]).toFixed(0)} |`,
      );
    }
    console.log(`key set requests to the provider while measuring: ${jwksDuring}`);
    const base = median(cpu['auth off']);
    console.log(
      `ratio: get-stream-bearer-vs-auth-off CPU ${(median(cpu['bearer token']) / base).toFixed(2)} (target at most 1.15)`,
    );
    console.log(
      `ratio: get-stream-basic-vs-auth-off CPU ${(median(cpu['HTTP Basic']) / base).toFixed(2)}`,
    );
  } finally {
    await Promise.all([open.stop(), secured.stop()]);
    await provider.down();
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
