import { createScope, PROBLEM_HEADERS, uniqueName } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

interface Record {
  timestamp: number;
  segmentList: { number: number; startTime: number; keyStart: number; keyEnd: number }[];
  splits: number;
  merges: number;
}

const ALL = { from: 0, to: Number.MAX_SAFE_INTEGER };
const fixed = (minSegments: number) => ({
  scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments },
});
const byRate = (minSegments: number) => ({
  scalingPolicy: { type: 'BY_RATE_IN_EVENTS_PER_SEC', targetRate: 10, scaleFactor: 2, minSegments },
});

describe('Segments, epochs and scaling events (e2e)', () => {
  let t: TestApp;
  let scope: string;

  beforeAll(async () => {
    t = await startTestApp();
    scope = await createScope(t.http);
  });
  afterAll(() => t.close());

  const path = (stream: string) => `/v1/scopes/${scope}/streams/${stream}`;
  const create = (streamName: string, policy: object = {}) =>
    t.http
      .post(`/v1/scopes/${scope}/streams`)
      .send({ streamName, ...policy })
      .expect(201);
  const update = (stream: string, body: object) => t.http.put(path(stream)).send(body).expect(200);
  const events = async (stream: string, window = ALL): Promise<Record[]> => {
    const res = await t.http
      .get(`${path(stream)}/scaling-events`)
      .query(window)
      .expect(200);
    expect(Object.keys(res.body)).toEqual(['scalingEvents']);
    return res.body.scalingEvents as Record[];
  };
  const numbers = (record: Record) => record.segmentList.map((s) => s.number);
  /**
   * The service's clock, read where epochs read it: the time of epoch 0 of a stream created
   * now. Compared with epochs, it needs no other clock to agree with the service's.
   */
  const serviceNow = async (): Promise<number> => {
    const name = uniqueName('clock');
    await create(name);
    return (await events(name))[0].timestamp;
  };
  /** Returns once the service's clock is past `instant` (each reading is a request). */
  const serviceClockPast = async (instant: number): Promise<void> => {
    let now = await serviceNow();
    while (now <= instant) now = await serviceNow();
  };

  it('writes epoch 0 with one segment covering the key space, when the stream is created', async () => {
    const before = await serviceNow();
    await create('one');
    const after = await serviceNow();
    const [epoch0, ...rest] = await events('one');
    expect(rest).toEqual([]);
    expect(epoch0).toMatchObject({ splits: 0, merges: 0 });
    expect(epoch0.timestamp).toBeGreaterThanOrEqual(before);
    expect(epoch0.timestamp).toBeLessThanOrEqual(after);
    expect(epoch0.segmentList).toEqual([
      { number: 0, startTime: epoch0.timestamp, keyStart: 0, keyEnd: 1 },
    ]);
  });

  it('writes epoch 0 with three equal segments numbered 0..2', async () => {
    await create('three', fixed(3));
    const [epoch0] = await events('three');
    expect(epoch0.segmentList).toEqual([
      { number: 0, startTime: epoch0.timestamp, keyStart: 0, keyEnd: 1 / 3 },
      { number: 1, startTime: epoch0.timestamp, keyStart: 1 / 3, keyEnd: 2 / 3 },
      { number: 2, startTime: epoch0.timestamp, keyStart: 2 / 3, keyEnd: 1 },
    ]);
  });

  it('rescales 3 -> 4: splits 3, merges 2, new segments 3..6 in a later epoch', async () => {
    await create('rescale', fixed(3));
    await update('rescale', fixed(4));
    const [epoch0, epoch1] = await events('rescale');
    expect(epoch1.timestamp).toBeGreaterThan(epoch0.timestamp);
    expect(epoch1).toMatchObject({ splits: 3, merges: 2 });
    expect(epoch1.segmentList).toEqual(
      [0, 0.25, 0.5, 0.75].map((keyStart, i) => ({
        number: 3 + i,
        startTime: epoch1.timestamp,
        keyStart,
        keyEnd: keyStart + 0.25,
      })),
    );
  });

  it('does not scale when a fixed update keeps the segment count', async () => {
    await create('steady', fixed(2));
    await update('steady', { ...fixed(2), streamTags: ['changed'] });
    expect(await events('steady')).toHaveLength(1);
  });

  it('scales a rate policy when its minimum rises, not when it falls', async () => {
    await create('rated', byRate(2));
    await update('rated', byRate(4));
    expect((await events('rated')).map(numbers)).toEqual([
      [0, 1],
      [2, 3, 4, 5],
    ]);
    await update('rated', byRate(1));
    expect(await events('rated')).toHaveLength(2);
  });

  describe('windows', () => {
    let times: number[];

    beforeAll(async () => {
      // More than 1 ms apart, so that there are instants strictly between epochs: each change
      // waits until the service's clock is past the instant after the epoch before it.
      const lastEpochTime = async () => (await events('windowed')).at(-1)!.timestamp;
      await create('windowed', fixed(1));
      await serviceClockPast((await lastEpochTime()) + 1);
      await update('windowed', fixed(2));
      await serviceClockPast((await lastEpochTime()) + 1);
      await update('windowed', fixed(3));
      times = (await events('windowed')).map((r) => r.timestamp);
      expect(times).toHaveLength(3);
    });

    const epochsOf = async (from: number, to: number) =>
      (await events('windowed', { from, to })).map((r) => r.segmentList.length);

    it('is empty before the stream existed', async () => {
      expect(await epochsOf(0, times[0] - 1)).toEqual([]);
    });

    it('starts with the epoch created exactly at from', async () => {
      expect(await epochsOf(times[0], times[0])).toEqual([1]);
      expect(await epochsOf(times[1], times[2])).toEqual([2, 3]);
    });

    it('shows the epoch active at from when the window falls between epochs', async () => {
      expect(times[1] - times[0]).toBeGreaterThan(1);
      expect(await epochsOf(times[0] + 1, times[1] - 1)).toEqual([1]);
      expect(await epochsOf(times[0] + 1, times[2])).toEqual([1, 2, 3]);
      expect(await epochsOf(times[1] + 1, times[2])).toEqual([2, 3]);
    });

    it('shows only the last epoch after every change, with 0 splits and merges', async () => {
      const after = await events('windowed', { from: times[2] + 1000, to: times[2] + 2000 });
      expect(after).toHaveLength(1);
      expect(after[0]).toMatchObject({ timestamp: times[2], splits: 0, merges: 0 });
      expect(numbers(after[0])).toEqual([3, 4, 5]);
    });

    it('counts splits and merges between the records it shows', async () => {
      const all = await events('windowed');
      expect(all.map((r) => [r.splits, r.merges])).toEqual([
        [0, 0],
        [1, 0],
        [2, 1],
      ]);
    });
  });

  it.each([
    ['no window', ''],
    ['no to', '?from=0'],
    ['no from', '?to=10'],
    ['a non-integer from', '?from=abc&to=10'],
    ['a fractional to', '?from=0&to=1.5'],
    ['a negative from', '?from=-1&to=10'],
    ['an inverted window', '?from=10&to=5'],
    ['a time beyond 2^53-1', '?from=0&to=9007199254740993'],
  ])('rejects %s with 400', async (_, query) => {
    const name = uniqueName('validated');
    await create(name);
    const res = await t.http.get(`${path(name)}/scaling-events${query}`).expect(400);
    expect(res.body).toMatchObject({ status: 400, code: 'INVALID_REQUEST' });
  });

  it('answers 404 for a missing stream or scope', async () => {
    const stream = await t.http
      .get(`${path('nope')}/scaling-events?from=0&to=1`)
      .set(PROBLEM_HEADERS)
      .expect(404);
    expect(stream.body.code).toBe('STREAM_NOT_FOUND');
    const scopeMissing = await t.http
      .get('/v1/scopes/no-scope/streams/x/scaling-events?from=0&to=1')
      .set(PROBLEM_HEADERS)
      .expect(404);
    expect(scopeMissing.body.code).toBe('SCOPE_NOT_FOUND');
  });

  it('continues the numbering of a deleted stream when it is created again', async () => {
    await create('reborn', fixed(2));
    await update('reborn', fixed(3));
    await t.http
      .put(`${path('reborn')}/state`)
      .send({ streamState: 'SEALED' })
      .expect(200);
    await t.http.delete(path('reborn')).expect(204);
    expect(
      await t.sql('SELECT 1 FROM stream_epochs WHERE scope_name = $1 AND stream_name = $2', [
        scope,
        'reborn',
      ]),
    ).toEqual([]);

    await create('reborn', fixed(2));
    const history = await events('reborn');
    expect(history.map(numbers)).toEqual([[5, 6]]);
  });

  it('gives companions a history of their own', async () => {
    await create('with-history', fixed(3));
    const mark = await events('_MARKwith-history');
    expect(mark.map(numbers)).toEqual([[0]]);
  });

  it('serialises concurrent rescales: epochs strictly increase and numbers never repeat', async () => {
    await create('contended', fixed(1));
    const results = await Promise.all(
      [2, 3, 4, 5, 6, 7, 8, 9].map((n) => t.http.put(path('contended')).send(fixed(n))),
    );
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
    const history = await events('contended');
    expect(history).toHaveLength(9);
    history.forEach((record, i) => {
      if (i > 0) expect(record.timestamp).toBeGreaterThan(history[i - 1].timestamp);
    });
    const all = history.flatMap(numbers);
    expect(new Set(all).size).toBe(all.length);
    const epochs = await t.sql<{ epoch: number }>(
      'SELECT epoch FROM stream_epochs WHERE scope_name = $1 AND stream_name = $2 ORDER BY epoch',
      [scope, 'contended'],
    );
    expect(epochs.map((e) => e.epoch)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
  });
});
