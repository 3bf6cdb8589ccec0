/**
 * What a scope's policy costs the writes it judges: create-stream and update-rescale (the
 * bodies of `npm run bench`) in a scope with a policy of every rule, against the same writes in
 * a scope without one, on one built service, in alternating rounds (the policed scope second),
 * medians. The figure is the service's own CPU time per request; the `ratio:` lines are policed
 * over plain.
 *
 *   npm run bench:policy-cost [-- --rounds 3 --seconds 10 --connections 10 --rate 200]
 *
 * Without `--rate`, each side runs as fast as its answers come: were the policed scope's changes
 * to take turns (as they did when a check locked the policy's row), it would answer fewer per
 * second, and a service that waits more between its statements pays more CPU per request. With
 * `--rate N`, both sides are sent N requests/s (below what either answers), the same work each
 * second, so the ratio is what the policy's checks cost alone.
 *
 * Needs BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres), where it
 * creates a database `tributary_bench_*` and drops it at the end.
 */
import { parseArgs } from 'node:util';
import { CREATE_BODY, updateBody } from './scenarios';
import { LoadResult, measure, medianOfRounds, RequestSource } from './support/load';
import { send, withMeasuredService } from './support/servers';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    rate: { type: 'string' },
  },
});
const LOAD = {
  connections: Number(args.connections),
  warmupSeconds: 3,
  seconds: Number(args.seconds),
  overallRate: args.rate === undefined ? undefined : Number(args.rate),
};
const UPDATED_STREAMS = 200;

/**
 * Every rule, each one the bench's bodies pass: the limits far above what a run makes, the name
 * patterns and tag patterns with wildcards, so that each is matched for real.
 */
const POLICY = {
  owner: 'bench',
  description: 'A policy of every rule, which the bench writes pass',
  maxStreams: 1_000_000,
  maxSegmentsPerStream: 64,
  maxActiveSegments: 10_000_000,
  streamNames: ['created-*', 'updated-?*'],
  scalingTypes: ['BY_RATE_IN_EVENTS_PER_SEC', 'FIXED_NUM_SEGMENTS'],
  retention: { required: true, maxDays: 30, maxSizeMb: 4096 },
  requiredTags: ['bench', '*r*'],
};

const SCOPES = { plain: 'plain', policed: 'policed' } as const;
type Side = keyof typeof SCOPES;

const creates =
  (scope: string): RequestSource =>
  () => {
    creates.n += 1;
    return {
      method: 'POST',
      path: `/v1/scopes/${scope}/streams`,
      body: JSON.stringify({ streamName: `created-${creates.n}`, ...CREATE_BODY }),
    };
  };
creates.n = 0;

/** Round robin over the scope's streams, each flipped between one and two segments. */
const updates = (scope: string): RequestSource => {
  let k = 0;
  return () => {
    const i = k % UPDATED_STREAMS;
    const minSegments = Math.floor(k++ / UPDATED_STREAMS) % 2 === 0 ? 2 : 1;
    return {
      method: 'PUT',
      path: `/v1/scopes/${scope}/streams/updated-${i}`,
      body: JSON.stringify(updateBody(minSegments)),
    };
  };
};

const SCENARIOS: { name: string; requests: (scope: string) => RequestSource }[] = [
  { name: 'create-stream', requests: creates },
  { name: 'update-rescale', requests: updates },
];

async function main(): Promise<void> {
  await withMeasuredService(async (service) => {
    const base = service.baseUrl;
    for (const scope of Object.values(SCOPES)) {
      await send(base, 'POST', '/v1/scopes', { scopeName: scope });
      for (let i = 0; i < UPDATED_STREAMS; i++) {
        await send(base, 'POST', `/v1/scopes/${scope}/streams`, {
          streamName: `updated-${i}`,
          ...updateBody(1),
        });
      }
    }
    await send(base, 'PUT', `/v1/scopes/${SCOPES.policed}/policy`, POLICY);

    for (const scenario of SCENARIOS) {
      const rounds: Record<Side, LoadResult[]> = { plain: [], policed: [] };
      for (let round = 0; round < Number(args.rounds); round++) {
        for (const side of ['plain', 'policed'] as const) {
          const result = await measure(base, scenario.requests(SCOPES[side]), service.pid, LOAD);
          if (result.failures > 0) {
            throw new Error(`${scenario.name} ${side}: ${JSON.stringify(result.statusCodes)}`);
          }
          rounds[side].push(result);
        }
      }
      const plain = medianOfRounds(rounds.plain);
      const policed = medianOfRounds(rounds.policed);
      const each = (side: Side) =>
        rounds[side].map((r) => Math.round(r.cpuMicrosPerRequest)).join(', ');
      const rate = (r: LoadResult) => Math.round(r.requestsPerSecond);
      console.log(
        `${scenario.name}: plain ${Math.round(plain.cpuMicrosPerRequest)} µs CPU/request ` +
          `(rounds ${each('plain')}; ${rate(plain)} requests/s), policed ` +
          `${Math.round(policed.cpuMicrosPerRequest)} (rounds ${each('policed')}; ` +
          `${rate(policed)} requests/s)`,
      );
      console.log(
        `ratio: ${scenario.name} policed/plain = ` +
          (policed.cpuMicrosPerRequest / plain.cpuMicrosPerRequest).toFixed(2),
      );
    }
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
