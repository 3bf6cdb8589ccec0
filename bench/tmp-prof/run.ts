import { freePort, ServiceProcess } from '../../test/support/service-process';
import { BenchDatabase } from '../../bench/support/database';
import { summarizeProfiles } from '../../bench/support/profile-summary';
import { readdirSync, readFileSync } from 'node:fs';
async function main() {
  const db = await BenchDatabase.create('postgres://postgres@127.0.0.1:5432/postgres');
  const service = ServiceProcess.start(
    { PORT: String(await freePort()), DATABASE_URL: db.url, LOG_LEVEL: 'warn' },
    { execArgv: ['--cpu-prof', '--cpu-prof-dir', '/tmp/prof/out'] },
  );
  await service.ready();
  const base = service.baseUrl;
  const post = async (p: string, b: string) => {
    const r = await fetch(base + p, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: b,
    });
    await r.text();
    if (!r.ok) throw new Error(String(r.status));
  };
  await post('/v1/scopes', JSON.stringify({ scopeName: 'l' }));
  await post(
    '/v1/scopes/l/streams',
    JSON.stringify({
      streamName: 'o',
      scalingPolicy: {
        type: 'BY_RATE_IN_EVENTS_PER_SEC',
        targetRate: 100,
        scaleFactor: 2,
        minSegments: 1000,
      },
    }),
  );
  const batch = JSON.stringify({
    reports: Array.from({ length: 1000 }, (_, segment) => ({
      segment,
      since: Date.now() - 1800000,
      twoMinuteRate: 60,
      fiveMinuteRate: 60,
      tenMinuteRate: 60,
      twentyMinuteRate: 60,
    })),
  });
  for (let i = 0; i < 100; i++) await post('/v1/scopes/l/streams/o/load', batch);
  await service.stop();
  await db.drop();
  // self time by function
  const f = readdirSync('/tmp/prof/out').find((n) => n.endsWith('.cpuprofile'))!;
  const p = JSON.parse(readFileSync('/tmp/prof/out/' + f, 'utf8'));
  const self = new Map<number, number>();
  p.samples.forEach((id: number, i: number) =>
    self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0)),
  );
  const byFn = new Map<string, number>();
  for (const n of p.nodes) {
    const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.replace(/.*node_modules\//, '').replace(/.*dist\/src\//, 'src/')}:${n.callFrame.lineNumber}`;
    byFn.set(k, (byFn.get(k) ?? 0) + (self.get(n.id) ?? 0));
  }
  const total = [...byFn.values()].reduce((a, b) => a + b, 0);
  console.log(
    [...byFn]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 30)
      .map(([k, v]) => `${(v / 1000).toFixed(0)}ms ${((100 * v) / total).toFixed(1)}% ${k}`)
      .join('\n'),
  );
  console.log(summarizeProfiles('/tmp/prof/out'));
}
main();
