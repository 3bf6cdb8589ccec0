import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { cliAt, CliRun } from './support/cli-process';
import { freePort, ServiceProcess } from './support/service-process';
import { createTestDatabase } from './support/test-database';

const json = <T = Record<string, unknown>>(run: CliRun): T => {
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
  return JSON.parse(run.stdout) as T;
};

const POLICY = {
  owner: 'team-sales',
  maxStreams: 1,
  streamNames: ['sales-*'],
  requiredTags: ['owner:*'],
};

/** `tributary scopes policy` and `scopes set-policy`, as processes against the built service. */
describe('tributary scopes policy and set-policy (e2e)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let service: ServiceProcess;
  let cli: ReturnType<typeof cliAt>;
  let dir: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    service = ServiceProcess.start({ PORT: String(await freePort()), DATABASE_URL: database.url });
    await service.ready();
    cli = cliAt(service.baseUrl);
    dir = await mkdtemp(join(tmpdir(), 'tributary-policy-'));
    await cli(['scopes', 'create', 'sales']);
    // Made before the policy, which they then break: two streams over a limit of one, no tags.
    await cli(['streams', 'create', 'sales', 'orders', '--min-segments', '2']);
    await cli(['streams', 'create', 'sales', 'refunds']);
  });
  afterAll(async () => {
    await service.stop();
    await database.drop();
  });

  const file = async (name: string, text: string): Promise<string> => {
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  };

  it('sets a policy from YAML, then shows it with how the scope stands, as json and as a table', async () => {
    const set = json(
      await cli([
        'scopes',
        'set-policy',
        'sales',
        '-f',
        await file('p.yaml', stringify(POLICY)),
        '-o',
        'json',
      ]),
    );
    expect(set).toEqual(POLICY);

    const shown = json<{ policy: object; compliance: Record<string, unknown> }>(
      await cli(['scopes', 'policy', 'sales', '-o', 'json']),
    );
    expect(shown.policy).toEqual(POLICY);
    expect(shown.compliance).toMatchObject({
      streams: 2,
      activeSegments: 3,
      limitsExceeded: ['maxStreams'],
      nonCompliantCount: 2,
    });

    const table = await cli(['scopes', 'policy', 'sales', '-o', 'table']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^Policy of scope sales \(ETag "[^"]+"\)/);
    expect(table.stdout).toMatch(/owner\s*│\s*team-sales/);
    expect(table.stdout).toContain('Use: 2 of 1 streams (over the limit), 3 active segments');
    expect(table.stdout).toContain('2 streams break the policy:');
    expect(table.stdout).toMatch(/orders\s*│\s*requiredTags\s*│\s*No tag of the stream matches/);
  });

  it('changes the policy only while --if-match is its ETag (3 otherwise), and reads JSON from stdin', async () => {
    const stale = await cli(
      ['scopes', 'set-policy', 'sales', '-f', '-', '--if-match', '"0.policy.0"'],
      { input: '{"maxStreams": 9}' },
    );
    expect(stale.code).toBe(3);
    expect(json(await cli(['scopes', 'policy', 'sales', '-o', 'json']))).toMatchObject({
      policy: { maxStreams: 1 },
    });

    const read = await cli(['scopes', 'policy', 'sales', '-o', 'table']);
    const etag = /\(ETag ("[^"]+")\)/.exec(read.stdout)?.[1] ?? '';
    const table = await cli(
      ['scopes', 'set-policy', 'sales', '-f', '-', '--if-match', etag, '-o', 'table'],
      { input: JSON.stringify({ ...POLICY, maxStreams: 5 }) },
    );
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^Set the policy of scope sales \(ETag "[^"]+"\)/);
    expect(table.stdout).toMatch(/maxStreams\s*│\s*5/);
  });

  it('says each rule a refused create breaks (5), and each invalid field of a policy (5)', async () => {
    const refused = await cli(['streams', 'create', 'sales', 'payments']);
    expect(refused.code).toBe(5);
    expect(refused.stderr).toContain('streamNames: The stream name payments matches none');
    expect(refused.stderr).toContain('requiredTags: No tag of the stream matches');

    const invalid = await cli(['scopes', 'set-policy', 'sales', '-f', '-'], {
      input: 'maxStreams: -1\nstreamtags: [x]\n',
    });
    expect(invalid.code).toBe(5);
    expect(invalid.stderr).toContain('maxStreams');
    expect(invalid.stderr).toContain('streamtags');
  });

  it('answers 2 for a missing scope, 5 for a file that is not YAML, and 1 for a missing file', async () => {
    expect((await cli(['scopes', 'policy', 'nowhere'])).code).toBe(2);
    const missing = await cli(['scopes', 'set-policy', 'nowhere', '-f', '-'], { input: '{}' });
    expect(missing.code).toBe(2);
    const broken = await cli(['scopes', 'set-policy', 'sales', '-f', '-'], {
      input: 'maxStreams: [unclosed\n',
    });
    expect(broken.code).toBe(5);
    const absent = await cli(['scopes', 'set-policy', 'sales', '-f', join(dir, 'absent.yaml')]);
    expect(absent.code).toBe(1);
    expect(absent.stderr).toContain('cannot read');
  });

  it("runs the README's example of a platform team's scope: apply, a refused create, the policy's use", async () => {
    const readme = await readFile(join(__dirname, '..', 'README.md'), 'utf8');
    const teams = /```yaml\n# teams\.yaml\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(teams).toBeDefined();
    const path = await file('teams.yaml', teams!);
    const planned = await cli(['apply', '-f', path, '--dry-run', '-o', 'table']);
    expect(planned.code).toBe(0);
    expect(planned.stdout).toMatch(/create\s+scopePolicy\s+prn::\/scope:payments/);
    expect((await cli(['apply', '-f', path, '--yes', '-o', 'json'])).code).toBe(0);
    const refused = await cli(['streams', 'create', 'payments', 'refunds']);
    expect(refused.code).toBe(5);
    const said = [...readme.matchAll(/^# {3}(\w[\w.]*: .*)$/gm)].map((line) => line[1]);
    expect(said).toHaveLength(3);
    for (const line of said) expect(refused.stderr).toContain(line);
    const shown = await cli(['scopes', 'policy', 'payments', '-o', 'table']);
    expect(shown.stdout).toContain('Use: 1 of 20 streams, 4 of 64 active segments');
  });
});
