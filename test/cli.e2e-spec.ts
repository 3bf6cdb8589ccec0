import { statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { cliAt, CliRun, tributary } from './support/cli-process';
import { freePort, ServiceProcess } from './support/service-process';
import { createTestDatabase } from './support/test-database';

const json = <T = Record<string, unknown>>(run: CliRun): T => {
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
  return JSON.parse(run.stdout) as T;
};

/** The CLI against the built service on a real database: every command, format and exit code. */
describe('tributary CLI (e2e)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let service: ServiceProcess;
  let cli: ReturnType<typeof cliAt>;

  beforeAll(async () => {
    database = await createTestDatabase();
    service = ServiceProcess.start({ PORT: String(await freePort()), DATABASE_URL: database.url });
    await service.ready();
    cli = cliAt(service.baseUrl);
  });
  afterAll(async () => {
    await service.stop();
    await database.drop();
  });

  describe('scopes', () => {
    it('creates, lists, shows and deletes a scope, as json, yaml and table', async () => {
      expect(json(await cli(['scopes', 'create', 'sc1', '-o', 'json']))).toEqual({
        scopeName: 'sc1',
      });
      const listed = await cli(['scopes', 'list', '-o', 'yaml']);
      expect(listed.code).toBe(0);
      expect(parse(listed.stdout)).toEqual({
        scopes: expect.arrayContaining([{ scopeName: 'sc1' }]) as unknown,
      });
      const table = await cli(['scopes', 'get', 'sc1', '-o', 'table']);
      expect(table.code).toBe(0);
      expect(table.stdout).toMatch(/scopeName\s*│\s*sc1/);
      const deleted = await cli(['scopes', 'delete', 'sc1', '-o', 'table']);
      expect(deleted).toMatchObject({ code: 0, stdout: 'Deleted scope sc1\n' });
      expect(await cli(['scopes', 'get', 'sc1'])).toMatchObject({ code: 2, stdout: '' });
    });

    it('answers json when stdout is not a terminal and no -o is given', async () => {
      await cli(['scopes', 'create', 'piped']);
      expect(json(await cli(['scopes', 'get', 'piped']))).toEqual({ scopeName: 'piped' });
    });

    it('writes nothing on stdout for a 204 as json', async () => {
      await cli(['scopes', 'create', 'gone']);
      expect(await cli(['scopes', 'delete', 'gone', '-o', 'json'])).toEqual({
        code: 0,
        stdout: '',
        stderr: '',
      });
    });
  });

  describe('streams', () => {
    beforeAll(async () => {
      await cli(['scopes', 'create', 'st']);
    });

    it('creates a stream from policy options and shows it as the REST answer', async () => {
      const created = json(
        await cli([
          'streams',
          'create',
          'st',
          'orders',
          '--min-segments',
          '3',
          '--tag',
          'billing',
          '--tag',
          'eu',
          '--retention-type',
          'LIMITED_DAYS',
          '--retention-value',
          '7',
          '--rollover-size-bytes',
          '1024',
          '-o',
          'json',
        ]),
      );
      expect(created).toEqual({
        scopeName: 'st',
        streamName: 'orders',
        scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 3 },
        retentionPolicy: {
          type: 'LIMITED_DAYS',
          value: 7,
          timeBasedRetention: { days: 7, hours: 0, minutes: 0 },
        },
        tags: ['billing', 'eu'],
        rolloverSizeBytes: 1024,
        timestampAggregationTimeout: 0,
      });
      expect(json(await cli(['streams', 'get', 'st', 'orders']))).toEqual(created);
      const table = await cli(['streams', 'list', 'st', '-o', 'table']);
      expect(table.stdout).toMatch(
        /orders\s*│\s*FIXED_NUM_SEGMENTS\s*│\s*3\s*│\s*7 days\s*│\s*billing, eu/,
      );
    });

    it('updates with PUT semantics, rescaling, and shows the history as a table', async () => {
      await cli(['streams', 'create', 'st', 'scaled']);
      const updated = json(
        await cli([
          'streams',
          'update',
          'st',
          'scaled',
          '--scaling-type',
          'FIXED_NUM_SEGMENTS',
          '--min-segments',
          '4',
        ]),
      );
      expect(updated).toMatchObject({ scalingPolicy: { minSegments: 4 }, tags: [] });
      const events = json<{ scalingEvents: { segmentList: unknown[]; splits: number }[] }>(
        await cli(['streams', 'history', 'st', 'scaled']),
      );
      expect(events.scalingEvents.map((e) => e.segmentList.length)).toEqual([1, 4]);
      const table = await cli([
        'streams',
        'history',
        'st',
        'scaled',
        '-o',
        'table',
        '--from',
        '1970-01-01T00:00:00Z',
      ]);
      expect(table.code).toBe(0);
      const rows = table.stdout.split('\n').filter((l) => /^│ \d/.test(l));
      expect(table.stdout).toMatch(
        /epoch time \(ms\)\s*│\s*time \(UTC\)\s*│\s*segments\s*│\s*splits\s*│\s*merges/,
      );
      expect(rows).toHaveLength(2);
      expect(rows[1]).toMatch(/│\s*4\s*│\s*1\s*│\s*0\s*│$/);
      const empty = json<{ scalingEvents: unknown[] }>(
        await cli(['streams', 'history', 'st', 'scaled', '--from', '0', '--to', '1']),
      );
      expect(empty.scalingEvents).toEqual([]);
    });

    it('seals and deletes a stream; an update of a sealed stream is a conflict (3)', async () => {
      await cli(['streams', 'create', 'st', 'old']);
      expect(json(await cli(['streams', 'seal', 'st', 'old']))).toEqual({ streamState: 'SEALED' });
      const refused = await cli(['streams', 'update', 'st', 'old', '--min-segments', '2']);
      expect(refused.code).toBe(3);
      expect(refused.stderr).toMatch(/sealed/i);
      expect(await cli(['streams', 'delete', 'st', 'old', '-o', 'table'])).toMatchObject({
        code: 0,
        stdout: 'Deleted stream st/old\n',
      });
    });

    it('describes a stream, and answers 2 for a missing one', async () => {
      const run = await cli(['streams', 'describe', 'st', 'orders', '-o', 'json']);
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({
        scopeName: 'st',
        streamName: 'orders',
        state: 'ACTIVE',
        currentEpoch: expect.any(Number),
        activeSegments: expect.any(Array),
        readerGroups: [],
      });
      const missing = await cli(['streams', 'describe', 'st', 'nope']);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('nope');
      expect(missing.stderr).not.toContain('does not describe streams');
    });

    it('refuses invalid configurations with 5, naming each field', async () => {
      const run = await cli(['streams', 'create', 'st', 'bad', '--min-segments', '0', '--tag', '']);
      expect(run.code).toBe(5);
      expect(run.stderr).toContain('scalingPolicy.minSegments');
      expect(run.stderr).toContain('streamTags[0]');
      const name = await cli(['streams', 'create', 'st', '_reserved']);
      expect(name.code).toBe(5);
      expect(name.stderr).toContain('streamName');
    });

    it('answers 3 for a duplicate create, and 2 in a missing scope', async () => {
      await cli(['streams', 'create', 'st', 'twice']);
      const again = await cli(['streams', 'create', 'st', 'twice']);
      expect(again.code).toBe(3);
      expect(again.stderr).toContain('twice');
      expect((await cli(['streams', 'list', 'no-such-scope'])).code).toBe(2);
    });
  });

  describe('reader groups and readers', () => {
    it('creates, shows, lists and deletes a group, and marks readers online and offline', async () => {
      await cli(['scopes', 'create', 'rg']);
      await cli(['streams', 'create', 'rg', 'orders']);
      const created = json(
        await cli(['readergroups', 'create', 'rg', 'billing', '--stream', 'orders']),
      );
      expect(created).toEqual({
        scopeName: 'rg',
        readerGroupName: 'billing',
        streamList: ['rg/orders'],
        onlineReaderIds: [],
      });
      expect((await cli(['readers', 'online', 'rg', 'billing', 'r1', '-o', 'table'])).stdout).toBe(
        'Reader r1 of rg/billing is online\n',
      );
      expect(json(await cli(['readergroups', 'get', 'rg', 'billing']))).toMatchObject({
        onlineReaderIds: ['r1'],
      });
      expect((await cli(['readers', 'offline', 'rg', 'billing', 'r1'])).code).toBe(0);
      expect(json(await cli(['readergroups', 'get', 'rg', 'billing']))).toMatchObject({
        onlineReaderIds: [],
      });
      const list = await cli(['readergroups', 'list', 'rg', '-o', 'table']);
      expect(list.stdout).toMatch(/reader group[\s\S]*billing/);
      expect((await cli(['readergroups', 'delete', 'rg', 'billing'])).code).toBe(0);
      expect((await cli(['readergroups', 'get', 'rg', 'billing'])).code).toBe(2);
      const deleteScope = await cli(['scopes', 'delete', 'rg']);
      expect(deleteScope.code).toBe(3);
    });

    it('needs at least one --stream (1)', async () => {
      const run = await cli(['readergroups', 'create', 'rg', 'none']);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('--stream');
    });
  });

  describe('health and audit', () => {
    it('shows the health, and the newest audit events up to --limit', async () => {
      expect(json(await cli(['health']))).toMatchObject({ status: 'UP' });
      expect((await cli(['health', '-o', 'table'])).stdout).toMatch(/status\s*│\s*UP/);
      const audit = json<{ auditEvents: { operation: string }[] }>(
        await cli(['audit', '--limit', '2']),
      );
      expect(audit.auditEvents).toHaveLength(2);
      const table = await cli(['audit', '--limit', '1', '-o', 'table']);
      expect(table.stdout).toMatch(/operation[\s\S]*SUCCEEDED/);
      expect((await cli(['audit', '--limit', '0'])).code).toBe(5);
    });
  });

  describe('export', () => {
    it('writes every scope as an apply document, yaml by default, json with -o json', async () => {
      await cli(['scopes', 'create', 'ex']);
      await cli([
        'streams',
        'create',
        'ex',
        'a',
        '--scaling-type',
        'BY_RATE_IN_EVENTS_PER_SEC',
        '--target-rate',
        '10',
        '--scale-factor',
        '2',
        '--min-segments',
        '2',
      ]);
      await cli([
        'streams',
        'create',
        'ex',
        'b',
        '--retention-type',
        'LIMITED_SIZE_MB',
        '--retention-value',
        '5',
      ]);
      await cli(['scopes', 'create', 'ex2']);
      await cli(['streams', 'create', 'ex2', 'orders']);
      await cli(['readergroups', 'create', 'ex', 'g', '--stream', 'a', '--stream', 'ex2/orders']);
      const yaml = await cli(['export', '--scope', 'ex']);
      expect(yaml.code).toBe(0);
      const expected = {
        scopes: [
          {
            scopeName: 'ex',
            streams: [
              {
                streamName: 'a',
                scalingPolicy: {
                  type: 'BY_RATE_IN_EVENTS_PER_SEC',
                  targetRate: 10,
                  scaleFactor: 2,
                  minSegments: 2,
                },
              },
              {
                streamName: 'b',
                scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 },
                retentionPolicy: { type: 'LIMITED_SIZE_MB', value: 5 },
              },
            ],
            readerGroups: [{ readerGroupName: 'g', streams: ['a', 'ex2/orders'] }],
          },
        ],
      };
      expect(parse(yaml.stdout)).toEqual(expected);
      // Planned by the service it came from, the exported document changes nothing.
      const plan = await fetch(`${service.baseUrl}/v1/apply?dryRun=true`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/yaml' },
        body: yaml.stdout,
      });
      expect(((await plan.json()) as { summary: object }).summary).toEqual({
        create: 0,
        update: 0,
        delete: 0,
        unchanged: 4,
      });
      const all = json<{ scopes: { scopeName: string }[] }>(await cli(['export', '-o', 'json']));
      expect(all.scopes.map((s) => s.scopeName)).toEqual(expect.arrayContaining(['ex', 'ex2']));
      expect(all.scopes.find((s) => s.scopeName === 'ex')).toEqual(expected.scopes[0]);
    });

    it('answers 2 for a missing --scope and 1 for -o table', async () => {
      expect((await cli(['export', '--scope', 'nowhere'])).code).toBe(2);
      const table = await cli(['export', '-o', 'table']);
      expect(table.code).toBe(1);
      expect(table.stderr).toContain('yaml or json');
    });
  });

  describe('options and usage', () => {
    it('takes the options after the command too, and the URL from TRIBUTARY_URL', async () => {
      expect(
        json(await tributary(['scopes', 'create', 'opt', '--url', service.baseUrl, '-o', 'json'])),
      ).toEqual({ scopeName: 'opt' });
      const fromEnv = await tributary(['scopes', 'get', 'opt'], {
        env: { TRIBUTARY_URL: service.baseUrl },
      });
      expect(json(fromEnv)).toEqual({ scopeName: 'opt' });
    });

    it.each([
      [['bogus']],
      [['scopes']],
      [['scopes', 'get']],
      [['streams', 'create', 'st', 'x', '--min-segments', 'many']],
      [['scopes', 'list', '-o', 'xml']],
      [['streams', 'create', 'st', 'x', '--retention-value', '3']],
      [['--url', 'not a url', 'scopes', 'list']],
    ])('exits 1 on the usage error %j, changing nothing', async (args) => {
      const run = await cli(args);
      expect(run.code).toBe(1);
      expect(run.stderr).not.toBe('');
      expect((await cli(['streams', 'get', 'st', 'x'])).code).toBe(2);
    });

    it('is built as an executable, which `npx tributary` in a checkout runs', () => {
      const mode = statSync(join(__dirname, '../dist/src/cli/main.js')).mode;
      expect(mode & 0o111).toBe(0o111);
    });

    it('exits 0 for --help', async () => {
      const run = await tributary(['--help']);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('readergroups');
    });

    it('takes the API address (with /v1) as the service, and refuses a URL without a scheme', async () => {
      expect(
        json(await tributary(['--url', `${service.baseUrl}/v1/`, 'scopes', 'create', 'v1url'])),
      ).toEqual({ scopeName: 'v1url' });
      const host = `localhost:${new URL(service.baseUrl).port}`;
      expect(await tributary(['--url', host, 'scopes', 'list'])).toEqual({
        code: 1,
        stdout: '',
        stderr: `error: --url ${host} is not an http:// or https:// URL: give one like http://localhost:9091\n`,
      });
      expect(await tributary(['scopes', 'list'], { env: { TRIBUTARY_URL: 'not a url' } })).toEqual({
        code: 1,
        stdout: '',
        stderr: 'error: --url not a url is not a URL: give one like http://localhost:9091\n',
      });
    });

    it.each([[['streams', 'scale']], [['streams', 'segments']], [['watch']], [['whoami']]])(
      '%j --help lists the options every command takes too',
      async (command) => {
        const run = await tributary([...command, '--help']);
        const lines = run.stdout.split('\n');
        const globals = lines.slice(lines.indexOf('Global Options:') + 1);
        expect({
          code: run.code,
          stderr: run.stderr,
          usage: lines[0],
          globals: globals.filter((l) => /^ {2}(--url|-o,|--token) /.test(l)),
        }).toEqual({
          code: 0,
          stderr: '',
          usage: expect.stringMatching(`^Usage: tributary ${command.join(' ')} `) as unknown,
          globals: [
            '  --url <url>               the service (default: "http://localhost:9091", env:',
            '  --token <jwt>             a bearer token (env: TRIBUTARY_TOKEN)',
            '  -o, --output <format>     output format (default: table on a terminal, else',
          ],
        });
      },
    );

    it('says so when an https:// URL names a service that speaks http://', async () => {
      const https = service.baseUrl.replace(/^http:/, 'https:');
      expect(await tributary(['--url', https, 'scopes', 'list'])).toEqual({
        code: 6,
        stdout: '',
        stderr:
          `error: cannot reach ${https}: it does not answer with TLS (does it speak http://?) ` +
          '(ERR_SSL_WRONG_VERSION_NUMBER)\n',
      });
    });

    it('says once what is wrong with a limit that is not in 1..1000', async () => {
      for (const limit of ['-1', 'x', '0']) {
        expect(await cli(['audit', '--limit', limit])).toEqual({
          code: limit === 'x' ? 1 : 5,
          stdout: '',
          stderr:
            limit === 'x'
              ? "error: option '--limit <n>' argument 'x' is invalid. must be a whole number\n" +
                '(add --help for usage)\n'
              : 'error: limit: limit must be an integer from 1 to 1000\n',
        });
      }
    });

    it.each(['0', '-5'])('refuses --timeout %s as a usage error', async (timeout) => {
      expect(await cli(['scopes', 'list', '--timeout', timeout])).toEqual({
        code: 1,
        stdout: '',
        stderr:
          `error: option '--timeout <ms>' argument '${timeout}' is invalid. must be a whole ` +
          'number from 1\n(add --help for usage)\n',
      });
    });

    it('exits 6 when nothing listens at the URL', async () => {
      const port = await freePort();
      const run = await tributary(['--url', `http://127.0.0.1:${port}`, 'scopes', 'list']);
      expect(run.code).toBe(6);
      expect(run.stderr).toContain('cannot reach');
      expect(run.stderr).toContain('ECONNREFUSED');
    });
  });
});
