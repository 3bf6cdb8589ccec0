import { stripVTControlCharacters } from 'node:util';
import { parse } from 'yaml';
import { cliAt, CliRun } from './support/cli-process';
import { freePort, ServiceProcess } from './support/service-process';
import { createTestDatabase } from './support/test-database';

interface Segment {
  number: number;
  startTime: number;
  keyStart: number;
  keyEnd: number;
}

const json = <T = Record<string, unknown>>(run: CliRun): T => {
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
  return JSON.parse(run.stdout) as T;
};
const numbers = (segments: Segment[]) => segments.map((s) => s.number);
/** The lines of the key-space drawing: from the `before` or `keys` row to the axis. */
const drawn = (stdout: string): string[] => {
  const lines = stripVTControlCharacters(stdout).split('\n');
  const first = lines.findIndex((l) => /^(before|keys) /.test(l));
  const axis = lines.findIndex((l, i) => i > first && /^\s+0\s+1$/.test(l));
  return lines.slice(first, axis + 1);
};

/**
 * `tributary streams scale` and `streams segments` (docs/extensions.md sections 6 and 7) as a
 * person and a script run them, against the built service on a real database.
 */
describe('tributary streams scale and segments (e2e)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let service: ServiceProcess;
  let cli: ReturnType<typeof cliAt>;
  let stream = 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    service = ServiceProcess.start({ PORT: String(await freePort()), DATABASE_URL: database.url });
    await service.ready();
    cli = cliAt(service.baseUrl);
    expect((await cli(['scopes', 'create', 'cs'])).code).toBe(0);
  });
  afterAll(async () => {
    await service.stop();
    await database.drop();
  });

  /** A new stream of four equal segments, numbered 0 to 3. */
  const quarters = async (): Promise<string> => {
    const name = `q${stream++}`;
    json(await cli(['streams', 'create', 'cs', name, '--min-segments', '4']));
    return name;
  };
  const SPLIT = ['--seal', '1,2', '--range', '0.25:0.4', '--range', '0.4:0.75'];

  it('scales and prints the REST answer as json', async () => {
    const name = await quarters();
    const scaled = json<{ epoch: number; segments: Segment[]; newSegments: Segment[] }>(
      await cli(['streams', 'scale', 'cs', name, ...SPLIT, '-o', 'json']),
    );
    expect([scaled.epoch, numbers(scaled.segments), numbers(scaled.newSegments)]).toEqual([
      1,
      [0, 4, 5, 3],
      [4, 5],
    ]);
    const now = json<{ epoch: number; segments: Segment[] }>(
      await cli(['streams', 'segments', 'cs', name]),
    );
    expect(now).toEqual({ epoch: 1, segments: scaled.segments });
  });

  it('prints the segments after the scale and draws the key space before and after', async () => {
    const name = await quarters();
    const run = await cli(['streams', 'scale', 'cs', name, ...SPLIT, '-o', 'table']);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(
      /^Scaled cs\/q\d+: epoch 1 at \S+Z \(sealed 1, 2; opened 4, 5; 1 split, 1 merge\)\n/,
    );
    const rows = run.stdout.split('\n').filter((l) => /^│ \d/.test(l));
    expect(rows.map((row) => row.split('│').map((cell) => cell.trim()))).toEqual([
      ['', '0', '0', '0.25', expect.any(String), '', ''],
      ['', '4', '0.25', '0.4', expect.any(String), 'new', ''],
      ['', '5', '0.4', '0.75', expect.any(String), 'new', ''],
      ['', '3', '0.75', '1', expect.any(String), '', ''],
    ]);
    expect(drawn(run.stdout)).toEqual([
      'before │────────0────────│════════1════════│════════2═══════│────────3────────│',
      'after  │────────0────────│════4════│════════════5═══════════│────────3────────│',
      '       0                                                                      1',
    ]);
  });

  it('with --dry-run, shows the same and changes nothing', async () => {
    const name = await quarters();
    const dry = await cli(['streams', 'scale', 'cs', name, ...SPLIT, '--dry-run', '-o', 'table']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^Dry run, nothing changed: scaling cs\/q\d+ would make epoch 1 /);
    const done = await cli(['streams', 'scale', 'cs', name, ...SPLIT, '-o', 'table']);
    expect(drawn(dry.stdout)).toEqual(drawn(done.stdout));
    const before = json<{ epoch: number }>(await cli(['streams', 'segments', 'cs', name]));
    expect(before.epoch).toBe(1);
    const again = json<{ epoch: number }>(
      await cli(['streams', 'scale', 'cs', name, '--seal', '0', '--range', '0:0.25', '--dry-run']),
    );
    expect(again.epoch).toBe(2);
    expect(json<{ epoch: number }>(await cli(['streams', 'segments', 'cs', name])).epoch).toBe(1);
  });

  it('answers the segments at a moment, as yaml and as a table', async () => {
    const name = await quarters();
    const scaled = json<{ timestamp: number; segments: Segment[] }>(
      await cli(['streams', 'scale', 'cs', name, ...SPLIT]),
    );
    const before = parse(
      (
        await cli([
          'streams',
          'segments',
          'cs',
          name,
          '--at',
          String(scaled.timestamp - 1),
          '-o',
          'yaml',
        ])
      ).stdout,
    ) as { epoch: number; segments: Segment[] };
    expect([before.epoch, numbers(before.segments)]).toEqual([0, [0, 1, 2, 3]]);
    const iso = new Date(scaled.timestamp).toISOString();
    const at = json<{ epoch: number }>(await cli(['streams', 'segments', 'cs', name, '--at', iso]));
    expect(at.epoch).toBe(1);
    const table = await cli(['streams', 'segments', 'cs', name, '-o', 'table']);
    expect(table.stdout).toMatch(new RegExp(`^Epoch 1 of cs/${name} now\\n`));
    expect(drawn(table.stdout)).toEqual([
      'keys │────────0────────│────4────│────────────5───────────│────────3────────│',
      '     0                                                                      1',
    ]);
  });

  it('exits 1 on a usage error, before asking the service anything', async () => {
    const name = await quarters();
    for (const args of [
      ['--range', '0:0.25'],
      ['--seal', '0'],
      ['--seal', 'a', '--range', '0:0.25'],
      ['--seal', '0', '--range', '0.25'],
      ['--seal', '0', '--range', 'x:1'],
      ['--seal', '0', '--range', '0:0x1'],
    ]) {
      const run = await cli(['streams', 'scale', 'cs', name, ...args]);
      expect([args, run.code, run.stdout]).toEqual([args, 1, '']);
      expect(run.stderr).toMatch(/error: /);
    }
    expect((await cli(['streams', 'segments', 'cs', name, '--at', 'yesterday'])).code).toBe(1);
    expect(json<{ epoch: number }>(await cli(['streams', 'segments', 'cs', name])).epoch).toBe(0);
  });

  it("exits with the status's code, saying what the service said", async () => {
    const name = await quarters();
    const cases: [string[], number, string][] = [
      [['--seal', '0', '--range', '0:0.2'], 5, 'the sealed segments cover [0, 0.25)'],
      [['--seal', '0', '--range', '0:0.2', '--range', '0.1:0.25'], 5, 'newRanges[0]: overlaps'],
      [['--seal', '9', '--range', '0:0.25'], 3, 'Segment 9 is not active'],
      [['--seal', '0,1', '--range', '0:0.5'], 3, 'needs at least 4'],
    ];
    for (const [args, code, words] of cases) {
      const run = await cli(['streams', 'scale', 'cs', name, ...args]);
      expect([args, run.code, run.stdout]).toEqual([args, code, '']);
      expect(run.stderr).toContain(words);
    }
    // A 400's invalid fields are said once each: alone, or under the problem's title.
    const backwards = await cli([
      'streams',
      'scale',
      'cs',
      name,
      '--seal',
      '0',
      '--range',
      '0.2:0.1',
    ]);
    expect(backwards).toEqual({
      code: 5,
      stdout: '',
      stderr: 'error: newRanges[0].keyEnd: must be greater than keyStart\n',
    });
    const twice = await cli([
      'streams',
      'scale',
      'cs',
      name,
      '--seal',
      '0,0',
      '--range',
      '0.2:0.1',
    ]);
    expect(twice).toEqual({
      code: 5,
      stdout: '',
      stderr:
        'error: Bad request\n' +
        '  sealedSegments[1]: repeats sealedSegments[0]\n' +
        '  newRanges[0].keyEnd: must be greater than keyStart\n',
    });
    const missing = await cli(['streams', 'scale', 'cs', 'nope', '--seal', '0', '--range', '0:1']);
    expect([missing.code, missing.stderr]).toEqual([2, 'error: Stream cs/nope does not exist\n']);
    expect((await cli(['streams', 'segments', 'nope', 'nope'])).code).toBe(2);
    const closed = cliAt(`http://127.0.0.1:${await freePort()}`);
    expect((await closed(['streams', 'segments', 'cs', name])).code).toBe(6);
  });
});
