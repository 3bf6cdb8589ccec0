import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { cliAt } from './support/cli-process';
import { freePort, ServiceProcess } from './support/service-process';
import { createTestDatabase } from './support/test-database';

jest.setTimeout(180_000);

const SALES_POLICY = { owner: 'team-sales', maxStreams: 10, retention: { maxDays: 30 } };

/**
 * `tributary export` then `tributary apply` against the built service: a topology kept in a
 * file, planned, applied to an empty service, and exported back unchanged.
 */
describe('tributary export and apply round trip (e2e)', () => {
  let databases: Awaited<ReturnType<typeof createTestDatabase>>[];
  let services: ServiceProcess[];
  let source: ReturnType<typeof cliAt>;
  let target: ReturnType<typeof cliAt>;
  let dir: string;

  const file = async (name: string, text: string): Promise<string> => {
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  };

  beforeAll(async () => {
    databases = await Promise.all([createTestDatabase(), createTestDatabase()]);
    services = await Promise.all(
      databases.map(async (database) =>
        ServiceProcess.start({ PORT: String(await freePort()), DATABASE_URL: database.url }),
      ),
    );
    await Promise.all(services.map((service) => service.ready()));
    [source, target] = services.map((service) => cliAt(service.baseUrl));
    dir = await mkdtemp(join(tmpdir(), 'tributary-roundtrip-'));

    for (const scope of ['sales', 'ops'])
      expect((await source(['scopes', 'create', scope])).code).toBe(0);
    const streams = [
      ['sales', 'orders', '--min-segments', '3', '--tag', 'billing'],
      ['sales', 'refunds', '--retention-type', 'LIMITED_DAYS', '--retention-value', '7'],
      [
        'ops',
        'metrics',
        '--scaling-type',
        'BY_RATE_IN_KBYTES_PER_SEC',
        '--target-rate',
        '100',
        '--scale-factor',
        '2',
        '--min-segments',
        '1',
      ],
    ];
    for (const args of streams) expect((await source(['streams', 'create', ...args])).code).toBe(0);
    const group = ['readergroups', 'create', 'sales', 'billing', '--stream', 'orders'];
    expect((await source([...group, '--stream', 'ops/metrics'])).code).toBe(0);
    const policy = ['scopes', 'set-policy', 'sales', '-f', '-'];
    expect((await source(policy, { input: JSON.stringify(SALES_POLICY) })).code).toBe(0);
  });
  afterAll(async () => {
    await Promise.all(services.map((service) => service.stop()));
    await Promise.all(databases.map((database) => database.drop()));
  });

  it('exports, plans, applies to an empty service and exports the same document back', async () => {
    const exported = await source(['export']);
    expect(exported.code).toBe(0);
    const path = await file('topology.yaml', exported.stdout);
    // A scope's policy is exported with it; a scope without one has none written.
    const scopes = (parse(exported.stdout) as { scopes: { scopeName: string; policy?: object }[] })
      .scopes;
    expect(scopes.find((s) => s.scopeName === 'sales')!.policy).toEqual(SALES_POLICY);
    expect(scopes.find((s) => s.scopeName === 'ops')).not.toHaveProperty('policy');

    const plan = await target(['apply', '-f', path, '--dry-run', '-o', 'json']);
    expect(plan.code).toBe(0);
    expect(JSON.parse(plan.stdout)).toMatchObject({
      dryRun: true,
      applied: false,
      summary: { create: 7, update: 0, delete: 0, unchanged: 0 },
    });
    expect((await target(['export'])).stdout).toBe(stringify({ scopes: [] }));

    const applied = await target(['apply', '-f', path, '--yes', '-o', 'json']);
    expect(applied.code).toBe(0);
    expect(JSON.parse(applied.stdout)).toMatchObject({ applied: true });
    expect((await target(['export'])).stdout).toBe(exported.stdout);

    const again = await target(['apply', '-f', path, '-o', 'table']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('= unchanged scopePolicy prn::/scope:sales');
    expect(again.stdout).toContain('Plan: 0 to create, 0 to update, 0 to delete, 7 unchanged.');
  });

  it('changes nothing when the last change of a document fails (exit 3)', async () => {
    const before = (await target(['export'])).stdout;
    const document = parse(before) as {
      scopes: { scopeName: string; streams?: object[]; readerGroups?: object[] }[];
    };
    document.scopes.push({
      scopeName: 'late',
      streams: [{ streamName: 'first' }],
      readerGroups: [{ readerGroupName: 'broken', streams: ['nowhere/missing'] }],
    });
    document.scopes[0].streams!.push({ streamName: 'added' });
    const run = await target([
      'apply',
      '-f',
      await file('broken.yaml', stringify(document)),
      '--yes',
    ]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('prn::/scope:late/reader-group:broken');
    expect((await target(['export'])).stdout).toBe(before);
  });

  it('prunes with --prune only inside the listed scopes', async () => {
    expect((await target(['streams', 'create', 'sales', 'stray'])).code).toBe(0);
    expect((await target(['streams', 'create', 'ops', 'kept'])).code).toBe(0);
    const sales = (await target(['export', '--scope', 'sales'])).stdout;
    const document = parse(sales) as { scopes: { streams: { streamName: string }[] }[] };
    document.scopes[0].streams = document.scopes[0].streams.filter((s) => s.streamName !== 'stray');
    const path = await file('sales.yaml', stringify(document));

    const plan = await target(['apply', '-f', path, '--prune', '--dry-run', '-o', 'table']);
    expect(plan.stdout).toContain('- delete    stream      prn::/scope:sales/stream:stray');
    expect((await target(['apply', '-f', path, '--prune', '--yes'])).code).toBe(0);

    const after = parse((await target(['export'])).stdout) as {
      scopes: { scopeName: string; streams: { streamName: string }[] }[];
    };
    const names = (scope: string) =>
      after.scopes.find((s) => s.scopeName === scope)!.streams.map((s) => s.streamName);
    expect(names('sales')).not.toContain('stray');
    expect(names('ops')).toContain('kept');
  });
});
