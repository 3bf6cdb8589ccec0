import { parse } from 'yaml';
import { cliAt, CliRun } from './support/cli-process';
import { freePort, ServiceProcess } from './support/service-process';
import { createTestDatabase } from './support/test-database';

interface Result {
  segment: number;
  outcome: string;
  reason?: string;
  because?: string;
  sealedSegments?: number[];
  newSegments?: { number: number }[];
}
interface Scale {
  segment: number;
  direction: string;
  because: string;
  epoch: number;
  sealedSegments: number[];
  newSegments: { number: number }[];
}

const json = <T>(run: CliRun): T => {
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
  return JSON.parse(run.stdout) as T;
};
/** A table's rows (not its header), their cells trimmed. */
const rows = (stdout: string): string[][] =>
  stdout
    .split('\n')
    .filter((line) => line.startsWith('│'))
    .slice(1)
    .map((line) =>
      line
        .split('│')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );

const HOT = ['--since', '30m', '--rates', '620.5,300,150,80'];
const COLD = ['--since', '1800s', '--rates', '5,5,5,5'];

/**
 * `tributary streams report-load` and `streams load-scales` (docs/extensions.md sections 6 and
 * 11) as a person and a script run them, against the built service on a real database.
 */
describe('tributary streams report-load and load-scales (e2e)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let service: ServiceProcess;
  let cli: ReturnType<typeof cliAt>;
  let stream = 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    // No mutes: a segment just opened may scale at once.
    service = ServiceProcess.start({
      PORT: String(await freePort()),
      DATABASE_URL: database.url,
      AUTOSCALE_MUTE_MS: '0',
    });
    await service.ready();
    cli = cliAt(service.baseUrl);
    expect((await cli(['scopes', 'create', 'cl'])).code).toBe(0);
  });
  afterAll(async () => {
    await service.stop();
    await database.drop();
  });

  /** A new stream scaled by its events' rate: a target of 100/s, splits into 3. */
  const byRate = async (): Promise<string> => {
    const name = `r${stream++}`;
    const policy = ['--scaling-type', 'BY_RATE_IN_EVENTS_PER_SEC', '--target-rate', '100'];
    json(
      await cli([
        'streams',
        'create',
        'cl',
        name,
        ...policy,
        '--scale-factor',
        '3',
        '--min-segments',
        '1',
      ]),
    );
    return name;
  };
  const report = (name: string, segment: number, how: string[], more: string[] = []) =>
    cli(['streams', 'report-load', 'cl', name, '--segment', String(segment), ...how, ...more]);

  it('splits a hot segment and merges cold ones back, printing the REST answers as json', async () => {
    const name = await byRate();
    const dry = json<{ epoch: number; results: Result[] }>(
      await report(name, 0, HOT, ['--dry-run', '-o', 'json']),
    );
    expect(dry).toMatchObject({ epoch: 1, results: [{ outcome: 'scaledUp' }] });
    expect(json<{ scales: Scale[] }>(await cli(['streams', 'load-scales', 'cl', name]))).toEqual({
      scales: [],
    });

    const up = json<{ epoch: number; results: Result[] }>(await report(name, 0, HOT));
    expect(up).toEqual({
      epoch: 1,
      results: [
        expect.objectContaining({
          segment: 0,
          outcome: 'scaledUp',
          because: 'two-minute rate 620.5 > 5 x 100: split into 3',
          sealedSegments: [0],
        }),
      ],
    });
    expect(json<{ results: Result[] }>(await report(name, 1, COLD)).results).toEqual([
      { segment: 1, outcome: 'markedCold', reason: 'NO_COLD_NEIGHBOUR' },
    ]);
    const down = json<{ epoch: number; results: Result[] }>(await report(name, 2, COLD));
    expect(down).toMatchObject({
      epoch: 2,
      results: [{ outcome: 'scaledDown', sealedSegments: [1, 2], newSegments: [{ number: 4 }] }],
    });

    const listed = json<{ scales: Scale[] }>(await cli(['streams', 'load-scales', 'cl', name]));
    expect(listed.scales.map((s) => [s.epoch, s.segment, s.direction])).toEqual([
      [2, 2, 'down'],
      [1, 0, 'up'],
    ]);
    const newest = json<{ scales: Scale[] }>(
      await cli(['streams', 'load-scales', 'cl', name, '--limit', '1', '-o', 'json']),
    );
    expect(newest.scales).toEqual([listed.scales[0]]);
    const asYaml = await cli(['streams', 'load-scales', 'cl', name, '-o', 'yaml']);
    expect(parse(asYaml.stdout)).toEqual(listed);
  });

  it('prints each result and each scale as a row for a person', async () => {
    const name = await byRate();
    const dry = await report(name, 0, HOT, ['--dry-run', '-o', 'table']);
    expect([dry.code, dry.stderr]).toEqual([0, '']);
    expect(dry.stdout).toMatch(/^Dry run, nothing changed: cl\/r\d+ would be at epoch 1\n/);
    expect(rows(dry.stdout)).toEqual([
      ['0', 'scaledUp', '', 'two-minute rate 620.5 > 5 x 100: split into 3'],
    ]);

    const empty = await cli(['streams', 'load-scales', 'cl', name, '-o', 'table']);
    expect(empty.stdout).toBe(`No automatic scales of cl/${name} yet\n`);

    expect((await report(name, 0, HOT)).code).toBe(0);
    const calm = await report(
      name,
      1,
      ['--since', '1m', '--rates', '620,300,150,80'],
      ['-o', 'table'],
    );
    expect(calm.stdout).toMatch(/^cl\/r\d+ is at epoch 1\n/);
    expect(rows(calm.stdout)).toEqual([['1', 'none', 'COOLING_DOWN', '']]);
    const gone = await report(name, 0, HOT, ['-o', 'table']);
    expect(rows(gone.stdout)).toEqual([['0', 'ignored', 'SEGMENT_NOT_ACTIVE', '']]);

    const listed = await cli(['streams', 'load-scales', 'cl', name, '-o', 'table']);
    expect([listed.code, listed.stderr]).toEqual([0, '']);
    expect(rows(listed.stdout)).toEqual([
      [
        expect.stringMatching(/^\d{4}-\d\d-\d\dT\S+Z$/) as string,
        '1',
        '0',
        'up',
        'two-minute rate 620.5 > 5 x 100: split into 3',
        '0',
        '1, 2, 3',
        'anonymous',
      ],
    ]);
  });

  it('exits with the usage code for bad arguments, and with the status code otherwise', async () => {
    const name = await byRate();
    const usage: string[][] = [
      ['--segment', '0', '--since', 'yesterday', '--rates', '1,1,1,1'],
      ['--segment', '0', '--since', '30m', '--rates', '1,1,1'],
      ['--segment', 'zero', '--since', '30m', '--rates', '1,1,1,1'],
      ['--since', '30m', '--rates', '1,1,1,1'],
    ];
    for (const args of usage) {
      const run = await cli(['streams', 'report-load', 'cl', name, ...args]);
      expect([args, run.code, run.stdout]).toEqual([args, 1, '']);
      expect(run.stderr).toMatch(/error: /);
    }
    const negative = await report(name, 0, ['--since', '30m', '--rates', '1,-1,1,1']);
    expect([negative.code, negative.stderr]).toEqual([
      5,
      'error: reports[0].fiveMinuteRate: must be a number >= 0\n',
    ]);
    const missing = await report('nope', 0, HOT);
    expect([missing.code, missing.stderr]).toEqual([2, 'error: Stream cl/nope does not exist\n']);
    expect((await cli(['streams', 'load-scales', 'cl', 'nope'])).code).toBe(2);
    expect((await cli(['streams', 'load-scales', 'nope', 'nope'])).code).toBe(2);
    const tooMany = await cli(['streams', 'load-scales', 'cl', name, '--limit', '101']);
    expect([tooMany.code, tooMany.stderr]).toEqual([
      5,
      'error: limit: limit must be an integer from 1 to 100\n',
    ]);
  });
});
