import fc from 'fast-check';
import { brokenInvariants } from './support/invariants';
import { createScope, PROBLEM_HEADERS, uniqueName } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

interface Segment {
  number: number;
  startTime: number;
  keyStart: number;
  keyEnd: number;
}

interface ScaleResult {
  epoch: number;
  timestamp: number;
  segments: Segment[];
  sealedSegments: number[];
  newSegments: Segment[];
  splits: number;
  merges: number;
}

interface ScaleRecord {
  timestamp: number;
  segmentList: Segment[];
  splits: number;
  merges: number;
}

const range = (keyStart: number, keyEnd: number) => ({ keyStart, keyEnd });
const fixed = (minSegments: number) => ({
  scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments },
});
const byRate = (minSegments: number) => ({
  scalingPolicy: { type: 'BY_RATE_IN_EVENTS_PER_SEC', targetRate: 10, scaleFactor: 2, minSegments },
});
const numbers = (segments: Segment[]) => segments.map((s) => s.number);

/** Segments and manual scaling (docs/extensions.md section 7), rule by rule, in their order. */
describe('Segments and manual scaling (e2e)', () => {
  let t: TestApp;
  let scope: string;

  beforeAll(async () => {
    t = await startTestApp();
    scope = await createScope(t.http);
  });
  afterEach(async () => {
    expect(await brokenInvariants((text) => t.sql(text))).toEqual([]);
  });
  afterAll(() => t.close());

  const path = (stream: string) => `/v1/scopes/${scope}/streams/${stream}`;
  /** A new stream of `minSegments` equal segments (numbered 0 to n-1), and its path. */
  const stream = async (minSegments = 4, name = uniqueName('s')): Promise<string> => {
    await t.http
      .post(`/v1/scopes/${scope}/streams`)
      .send({ streamName: name, ...fixed(minSegments) })
      .expect(201);
    return name;
  };
  const scale = (name: string, body: object, query = '', headers: object = {}) =>
    t.http
      .post(`${path(name)}/scale${query}`)
      .set({ ...PROBLEM_HEADERS, ...headers })
      .send(body);
  const segmentsAt = async (name: string, at?: number) => {
    const res = await t.http
      .get(`${path(name)}/segments${at === undefined ? '' : `?at=${at}`}`)
      .expect(200);
    return res.body as { epoch: number; segments: Segment[] };
  };
  const history = async (name: string): Promise<ScaleRecord[]> => {
    const res = await t.http
      .get(`${path(name)}/scaling-events`)
      .query({ from: 0, to: Number.MAX_SAFE_INTEGER })
      .expect(200);
    return res.body.scalingEvents as ScaleRecord[];
  };
  const etagOf = async (name: string) => (await t.http.get(path(name)).expect(200)).headers.etag;
  /** Every row that a refused scale must leave as it was. */
  const rowsOf = (name: string) =>
    t.sql(
      `SELECT (SELECT json_agg(e ORDER BY epoch) FROM stream_epochs e
                WHERE scope_name = $1 AND stream_name = $2) AS epochs,
              (SELECT json_agg(g ORDER BY number) FROM stream_segments g
                WHERE scope_name = $1 AND stream_name = $2) AS segments,
              (SELECT next_number FROM segment_numbering
                WHERE scope_name = $1 AND stream_name = $2) AS numbering,
              (SELECT version FROM streams WHERE scope_name = $1 AND name = $2) AS version,
              (SELECT count(*) FROM audit_events
                WHERE resource = 'prn::/scope:' || $1 || '/stream:' || $2) AS audited`,
      [scope, name],
    );
  const SPLIT_1_AND_2 = {
    sealedSegments: [1, 2],
    newRanges: [range(0.25, 0.4), range(0.4, 0.75)],
  };

  describe('POST .../scale', () => {
    it('opens epoch e+1: new segments numbered on in the order of newRanges, survivors kept', async () => {
      const name = await stream(4);
      const [epoch0] = await history(name);
      const before = await t.http.get(path(name)).expect(200);
      const started = Date.now();
      const res = await scale(name, {
        sealedSegments: [2, 1],
        newRanges: [range(0.4, 0.75), range(0.25, 0.4)],
      }).expect(200);
      const body = res.body as ScaleResult;
      const at = body.timestamp;
      expect(at).toBeGreaterThanOrEqual(started);
      const old = epoch0.segmentList;
      expect(body).toEqual({
        epoch: 1,
        timestamp: at,
        segments: [
          old[0],
          { number: 5, startTime: at, keyStart: 0.25, keyEnd: 0.4 },
          { number: 4, startTime: at, keyStart: 0.4, keyEnd: 0.75 },
          old[3],
        ],
        sealedSegments: [1, 2],
        newSegments: [
          { number: 4, startTime: at, keyStart: 0.4, keyEnd: 0.75 },
          { number: 5, startTime: at, keyStart: 0.25, keyEnd: 0.4 },
        ],
        splits: 1,
        merges: 1,
      });
      // The stream's version moves (its ETag is the answer's), its configuration does not.
      const after = await t.http.get(path(name)).expect(200);
      expect(res.headers.etag).toBe(after.headers.etag);
      expect(after.headers.etag).not.toBe(before.headers.etag);
      expect(after.body).toEqual(before.body);
    });

    it('numbers new segments on from the highest number used, scale after scale', async () => {
      const name = await stream(2);
      await t.http.put(path(name)).send(byRate(1)).expect(200);
      const sealed = await scale(name, { sealedSegments: [1], newRanges: [range(0.5, 1)] });
      const merged = await scale(name, { sealedSegments: [0, 2], newRanges: [range(0, 1)] });
      const split = await scale(name, {
        sealedSegments: [3],
        newRanges: [range(0, 0.5), range(0.5, 1)],
      });
      expect(
        [sealed, merged, split].map((r) => [r.status, numbers(r.body.newSegments ?? [])]),
      ).toEqual([
        [200, [2]],
        [200, [3]],
        [200, [4, 5]],
      ]);
    });

    it('continues the numbering of a deleted stream of the same name', async () => {
      const name = await stream(2);
      await scale(name, { sealedSegments: [0], newRanges: [range(0, 0.2), range(0.2, 0.5)] });
      await t.http
        .put(`${path(name)}/state`)
        .send({ streamState: 'SEALED' })
        .expect(200);
      await t.http.delete(path(name)).expect(204);
      await stream(2, name);
      expect(numbers((await segmentsAt(name)).segments)).toEqual([4, 5]);
      const res = await scale(name, { sealedSegments: [5], newRanges: [range(0.5, 1)] });
      expect([res.status, numbers(res.body.newSegments)]).toEqual([200, [6]]);
      // Its predecessor's numbers were never this stream's.
      const gone = await t.http.get(`${path(name)}/segments/2`).set(PROBLEM_HEADERS);
      expect([gone.status, gone.body.code]).toEqual([404, 'SEGMENT_NOT_FOUND']);
    });

    it('seals segments that are not neighbours when each block is covered exactly', async () => {
      const name = await stream(4);
      const res = await scale(name, {
        sealedSegments: [0, 3],
        newRanges: [range(0.75, 0.9), range(0, 0.25), range(0.9, 1)],
      }).expect(200);
      expect(numbers(res.body.segments)).toEqual([5, 1, 2, 4, 6]);
      expect([res.body.splits, res.body.merges]).toEqual([1, 0]);
    });

    it('compares bounds exactly and keeps them exactly, the smallest double included', async () => {
      const name = await stream(1);
      const odd = 0.1 + 0.2;
      const tiny = Number.MIN_VALUE;
      const split = await scale(name, {
        sealedSegments: [0],
        newRanges: [range(0, tiny), range(tiny, odd), range(odd, 1)],
      }).expect(200);
      expect(split.body.segments.map((s: Segment) => [s.keyStart, s.keyEnd])).toEqual([
        [0, tiny],
        [tiny, odd],
        [odd, 1],
      ]);
      const near = await scale(name, {
        sealedSegments: [2],
        newRanges: [range(tiny, 0.3)],
      });
      expect([near.status, near.body.code]).toEqual([400, 'RANGES_DO_NOT_MATCH']);
      await scale(name, { sealedSegments: [2, 3], newRanges: [range(tiny, 1)] }).expect(200);
      expect((await segmentsAt(name)).segments.map((s) => s.keyStart)).toEqual([0, tiny]);
    });

    it('times the epoch max(now, previous + 1): after an epoch stamped in the future', async () => {
      const name = await stream(2);
      const ahead = Date.now() + 60_000;
      await t.sql(
        `UPDATE stream_epochs SET created_at = $3 WHERE scope_name = $1 AND stream_name = $2`,
        [scope, name, ahead],
      );
      const res = await scale(name, { sealedSegments: [0], newRanges: [range(0, 0.5)] });
      expect([res.status, res.body.timestamp, res.body.newSegments[0].startTime]).toEqual([
        200,
        ahead + 1,
        ahead + 1,
      ]);
      const rapid = [];
      for (let i = 0; i < 5; i++) {
        const next = await scale(name, { sealedSegments: [2 + i], newRanges: [range(0, 0.5)] });
        rapid.push(next.body.timestamp as number);
      }
      expect(rapid).toEqual([ahead + 2, ahead + 3, ahead + 4, ahead + 5, ahead + 6]);
    });

    it('writes one audit row, scaleStream, with the change and not the whole epoch', async () => {
      const name = await stream(4);
      const res = await scale(name, SPLIT_1_AND_2).expect(200);
      const rows = await t.sql<{ operation: string; outcome: string; after: object }>(
        `SELECT operation, outcome, after FROM audit_events WHERE resource = $1 ORDER BY id`,
        [`prn::/scope:${scope}/stream:${name}`],
      );
      const { epoch, timestamp, sealedSegments, newSegments, splits, merges } =
        res.body as ScaleResult;
      expect(rows).toEqual([
        expect.objectContaining({ operation: 'createStream' }),
        {
          operation: 'scaleStream',
          outcome: 'SUCCEEDED',
          after: { epoch, timestamp, sealedSegments, newSegments, splits, merges },
        },
      ]);
    });

    describe('rule 1: the body (400, each problem named, before anything is looked up)', () => {
      const many = Array.from({ length: 1001 }, (_, i) => range(i / 1001, (i + 1) / 1001));
      it.each([
        ['no sealedSegments', { newRanges: [range(0, 1)] }, ['sealedSegments']],
        [
          'empty sealedSegments',
          { sealedSegments: [], newRanges: [range(0, 1)] },
          ['sealedSegments'],
        ],
        [
          'segments that are not integers >= 0',
          { sealedSegments: [1.5, -1, '2', null, 2 ** 31], newRanges: [range(0, 1)] },
          [0, 1, 2, 3, 4].map((i) => `sealedSegments[${i}]`),
        ],
        [
          'a repeated segment',
          { sealedSegments: [1, 2, 1], newRanges: [range(0, 1)] },
          ['sealedSegments[2]'],
        ],
        [
          'sealedSegments not a list',
          { sealedSegments: 2, newRanges: [range(0, 1)] },
          ['sealedSegments'],
        ],
        ['no newRanges', { sealedSegments: [0] }, ['newRanges']],
        ['empty newRanges', { sealedSegments: [0], newRanges: [] }, ['newRanges']],
        [
          'bounds that are not numbers',
          { sealedSegments: [0], newRanges: [{ keyStart: '0', keyEnd: 1 }, { keyStart: 0.5 }] },
          ['newRanges[0].keyStart', 'newRanges[1].keyEnd'],
        ],
        [
          'bounds outside [0, 1]',
          { sealedSegments: [0], newRanges: [range(-0.1, 0.5), range(0.5, 1.5)] },
          ['newRanges[0].keyStart', 'newRanges[1].keyEnd'],
        ],
        [
          'keyStart >= keyEnd',
          { sealedSegments: [0], newRanges: [range(0.5, 0.5), range(0.7, 0.6)] },
          ['newRanges[0].keyEnd', 'newRanges[1].keyEnd'],
        ],
        [
          'new ranges that overlap each other',
          { sealedSegments: [0], newRanges: [range(0, 0.6), range(0.6, 1), range(0.5, 0.7)] },
          ['newRanges[0]', 'newRanges[1]', 'newRanges[2]'],
        ],
        ['more than 1,000 new ranges', { sealedSegments: [0], newRanges: many }, ['newRanges']],
        [
          'a range that is not an object',
          { sealedSegments: [0], newRanges: [0.5] },
          ['newRanges[0]'],
        ],
      ])('%s', async (_case, body, fields) => {
        const name = await stream(1);
        const before = await rowsOf(name);
        const res = await scale(name, body);
        expect([res.status, res.body.code]).toEqual([400, 'INVALID_REQUEST']);
        const named = (res.body.errors as { field: string }[]).map((e) => e.field);
        expect([...new Set(named)]).toEqual(fields);
        expect(await rowsOf(name)).toEqual(before);
      });

      it('names a range that is a list, which has no bounds, before looking at the stream', async () => {
        const name = await stream(1);
        const before = await rowsOf(name);
        for (const newRanges of [[[]], [range(0, 0.5), [range(0.5, 1)]]]) {
          const res = await scale(name, { sealedSegments: [0], newRanges }, '?dryRun=true');
          expect({ status: res.status, body: res.body }).toEqual({
            status: 400,
            body: {
              type: 'urn:tributary:problem:invalid-request',
              title: 'Bad request',
              status: 400,
              detail: `newRanges[${newRanges.length - 1}]: must be an object, not an array`,
              code: 'INVALID_REQUEST',
              instance: `${path(name)}/scale?dryRun=true`,
              requestId: expect.any(String),
              errors: [
                {
                  field: `newRanges[${newRanges.length - 1}]`,
                  message: 'must be an object, not an array',
                },
              ],
            },
          });
        }
        expect(await rowsOf(name)).toEqual(before);
      });

      it('names each problem once: a list that is not one, a bound that is not finite', async () => {
        const name = await stream(1);
        const problem = (errors: object[]) => ({
          status: 400,
          body: {
            type: 'urn:tributary:problem:invalid-request',
            title: 'Bad request',
            status: 400,
            detail: expect.any(String),
            code: 'INVALID_REQUEST',
            instance: `${path(name)}/scale`,
            requestId: expect.any(String),
            errors,
          },
        });
        const send = (raw: string) =>
          t.http
            .post(`${path(name)}/scale`)
            .set({ ...PROBLEM_HEADERS, 'Content-Type': 'application/json' })
            .send(raw);
        const notLists = await send('{"sealedSegments": "1", "newRanges": {"keyStart": 0}}');
        expect({ status: notLists.status, body: notLists.body }).toEqual(
          problem([
            { field: 'sealedSegments', message: 'sealedSegments must be an array' },
            { field: 'newRanges', message: 'newRanges must be an array' },
          ]),
        );
        const infinite = await send(
          '{"sealedSegments": [0], "newRanges": [{"keyStart": 0, "keyEnd": 1e400}]}',
        );
        expect({ status: infinite.status, body: infinite.body }).toEqual(
          problem([{ field: 'newRanges[0].keyEnd', message: 'must be a number from 0 to 1' }]),
        );
      });

      it('names the overlapping ranges in its message', async () => {
        const name = await stream(1);
        const res = await scale(name, {
          sealedSegments: [0],
          newRanges: [range(0, 0.6), range(0.5, 1)],
        }).expect(400);
        expect(res.body.errors).toEqual([
          { field: 'newRanges[0]', message: 'overlaps newRanges[1]' },
          { field: 'newRanges[1]', message: 'overlaps newRanges[0]' },
        ]);
      });

      it('refuses malformed JSON, another media type and a bad dryRun', async () => {
        const name = await stream(1);
        const bad = await t.http
          .post(`${path(name)}/scale`)
          .set('Content-Type', 'application/json')
          .send('{"sealedSegments": [0],');
        expect([bad.status, bad.body.code]).toEqual([400, 'MALFORMED_BODY']);
        const text = await t.http
          .post(`${path(name)}/scale`)
          .set('Content-Type', 'text/plain')
          .send('0');
        expect(text.status).toBe(415);
        const dry = await scale(
          name,
          { sealedSegments: [0], newRanges: [range(0, 1)] },
          '?dryRun=yes',
        );
        expect([dry.status, dry.body.errors]).toEqual([
          400,
          [{ field: 'dryRun', message: 'dryRun must be true or false' }],
        ]);
      });

      it('refuses a query parameter it does not know, so a mistyped dryRun changes nothing', async () => {
        const name = await stream(4);
        const before = await rowsOf(name);
        const res = await scale(name, SPLIT_1_AND_2, '?dryrun=true');
        expect([res.status, res.body.code, res.body.errors]).toEqual([
          400,
          'INVALID_REQUEST',
          [{ field: 'dryrun', message: 'dryrun is not a parameter of this operation' }],
        ]);
        expect(await rowsOf(name)).toEqual(before);
        await scale(name, SPLIT_1_AND_2, '?dryRun=true').expect(200);
      });

      it('answers 400 before 404: a bad body for a missing scope or stream', async () => {
        const res = await t.http
          .post(`/v1/scopes/${uniqueName('none')}/streams/none/scale`)
          .send({ sealedSegments: [] });
        expect(res.status).toBe(400);
      });
    });

    describe('rule 2: the scope and the stream (404), the stream not sealed (412)', () => {
      it('answers 404 naming the missing scope or stream', async () => {
        const scopeGone = await t.http
          .post(`/v1/scopes/${uniqueName('none')}/streams/none/scale`)
          .set(PROBLEM_HEADERS)
          .send(SPLIT_1_AND_2);
        const streamGone = await scale('none', SPLIT_1_AND_2);
        expect([
          scopeGone.status,
          scopeGone.body.code,
          streamGone.status,
          streamGone.body.code,
        ]).toEqual([404, 'SCOPE_NOT_FOUND', 404, 'STREAM_NOT_FOUND']);
      });

      it('answers 412 STREAM_SEALED for a sealed stream, before looking at its segments', async () => {
        const name = await stream(4);
        await t.http
          .put(`${path(name)}/state`)
          .send({ streamState: 'SEALED' })
          .expect(200);
        const before = await rowsOf(name);
        for (const body of [SPLIT_1_AND_2, { sealedSegments: [9], newRanges: [range(0, 1)] }]) {
          const res = await scale(name, body);
          expect([res.status, res.body.code]).toEqual([412, 'STREAM_SEALED']);
        }
        const dry = await scale(name, SPLIT_1_AND_2, '?dryRun=true');
        expect([dry.status, dry.body.code]).toEqual([412, 'STREAM_SEALED']);
        expect(await rowsOf(name)).toEqual(before);
      });

      it('refuses to scale an internal stream (412 STREAM_INTERNAL)', async () => {
        const name = await stream(1);
        const res = await scale(`_MARK${name}`, { sealedSegments: [0], newRanges: [range(0, 1)] });
        expect([res.status, res.body.code]).toEqual([412, 'STREAM_INTERNAL']);
      });

      it('refuses a dry run on an internal stream too (412 STREAM_INTERNAL)', async () => {
        const name = await stream(1);
        const body = { sealedSegments: [0], newRanges: [range(0, 1)] };
        const res = await scale(`_MARK${name}`, body, '?dryRun=true');
        expect([res.status, res.body.code]).toEqual([412, 'STREAM_INTERNAL']);
      });
    });

    describe('rule 3: the segments to seal are in the current epoch (412 SEGMENT_NOT_ACTIVE)', () => {
      it('names every one that is not, sealed before or never made, before the ranges', async () => {
        const name = await stream(4);
        await scale(name, SPLIT_1_AND_2).expect(200);
        const before = await rowsOf(name);
        const res = await scale(name, { sealedSegments: [0, 1, 9], newRanges: [range(0, 0.5)] });
        expect([res.status, res.body.code, res.body.detail]).toEqual([
          412,
          'SEGMENT_NOT_ACTIVE',
          'Segments 1, 9 are not active in the current epoch (1)',
        ]);
        expect(await rowsOf(name)).toEqual(before);
      });
    });

    describe('rule 4: the new ranges cover exactly the sealed key space (400 RANGES_DO_NOT_MATCH)', () => {
      it.each([
        ['a gap', [range(0.25, 0.5), range(0.5, 0.7)]],
        ['less than the sealed', [range(0.3, 0.75)]],
        ['more than the sealed', [range(0.25, 0.8)]],
        ['0.1 + 0.2 for 0.3', [range(0.25, 0.3), range(0.1 + 0.2, 0.75)]],
      ])('refuses %s, changing nothing', async (_case, newRanges) => {
        const name = await stream(4);
        const before = await rowsOf(name);
        const res = await scale(name, { sealedSegments: [1, 2], newRanges });
        expect([res.status, res.body.code]).toEqual([400, 'RANGES_DO_NOT_MATCH']);
        expect(res.body.detail).toContain('the sealed segments cover [0.25, 0.75)');
        expect(await rowsOf(name)).toEqual(before);
      });

      it('refuses one range over two sealed segments that are not neighbours', async () => {
        const name = await stream(4);
        const res = await scale(name, { sealedSegments: [0, 2], newRanges: [range(0, 0.75)] });
        expect([res.status, res.body.code]).toEqual([400, 'RANGES_DO_NOT_MATCH']);
      });

      it('is checked before the minimum: both wrong is RANGES_DO_NOT_MATCH', async () => {
        const name = await stream(2);
        const res = await scale(name, { sealedSegments: [0, 1], newRanges: [range(0, 0.9)] });
        expect([res.status, res.body.code]).toEqual([400, 'RANGES_DO_NOT_MATCH']);
      });
    });

    describe("rule 5: the policy's minimum (412 BELOW_MIN_SEGMENTS)", () => {
      it('refuses a merge that leaves fewer segments than minSegments, changing nothing', async () => {
        const name = await stream(2);
        const before = await rowsOf(name);
        const res = await scale(name, { sealedSegments: [0, 1], newRanges: [range(0, 1)] });
        expect([res.status, res.body.code, res.body.detail]).toEqual([
          412,
          'BELOW_MIN_SEGMENTS',
          'The scale would leave 1 active segment; the scaling policy needs at least 2',
        ]);
        expect(await rowsOf(name)).toEqual(before);
      });

      it('allows a merge down to minSegments', async () => {
        const name = await stream(3);
        await t.http.put(path(name)).send(byRate(2)).expect(200);
        const res = await scale(name, { sealedSegments: [0, 1], newRanges: [range(0, 2 / 3)] });
        expect([res.status, numbers(res.body.segments)]).toEqual([200, [3, 2]]);
      });
    });

    describe('rule 6: If-Match, checked last, under the row lock', () => {
      it('scales only when If-Match names the current state', async () => {
        const name = await stream(4);
        const etag = await etagOf(name);
        const res = await scale(name, SPLIT_1_AND_2, '', { 'If-Match': etag }).expect(200);
        const before = await rowsOf(name);
        const stale = await scale(name, { sealedSegments: [0], newRanges: [range(0, 0.25)] }, '', {
          'If-Match': etag,
        });
        expect([stale.status, stale.body.code]).toEqual([412, 'PRECONDITION_FAILED']);
        expect(await rowsOf(name)).toEqual(before);
        const weak = await scale(name, { sealedSegments: [0], newRanges: [range(0, 0.25)] }, '', {
          'If-Match': `W/${res.headers.etag}`,
        });
        expect([weak.status, weak.body.code]).toEqual([412, 'PRECONDITION_FAILED']);
        const malformed = await scale(name, SPLIT_1_AND_2, '', { 'If-Match': 'nope' });
        expect(malformed.status).toBe(400);
        await scale(name, { sealedSegments: [0], newRanges: [range(0, 0.25)] }, '', {
          'If-Match': `"x", ${res.headers.etag}`,
        }).expect(200);
        await scale(name, { sealedSegments: [6], newRanges: [range(0, 0.25)] }, '', {
          'If-Match': '*',
        }).expect(200);
      });

      it('comes after every other rule: a stale tag with a refused scale names the rule', async () => {
        const name = await stream(2);
        const stale = { 'If-Match': '"1.1"' };
        const cases: [object, number, string][] = [
          [{ sealedSegments: [7], newRanges: [range(0, 1)] }, 412, 'SEGMENT_NOT_ACTIVE'],
          [{ sealedSegments: [0], newRanges: [range(0, 0.4)] }, 400, 'RANGES_DO_NOT_MATCH'],
          [{ sealedSegments: [0, 1], newRanges: [range(0, 1)] }, 412, 'BELOW_MIN_SEGMENTS'],
          [{ sealedSegments: [0], newRanges: [range(0, 0.5)] }, 412, 'PRECONDITION_FAILED'],
        ];
        for (const [body, status, code] of cases) {
          const res = await scale(name, body, '', stale);
          expect([code, res.status, res.body.code]).toEqual([code, status, code]);
        }
        const missing = await scale('none', SPLIT_1_AND_2, '', stale);
        expect([missing.status, missing.body.code]).toEqual([404, 'STREAM_NOT_FOUND']);
      });
    });

    describe('dryRun=true', () => {
      it('answers what the scale then does, with the current ETag, and changes nothing', async () => {
        const name = await stream(4);
        const etag = await etagOf(name);
        const before = await rowsOf(name);
        const dry = await scale(name, SPLIT_1_AND_2, '?dryRun=true').expect(200);
        expect(dry.headers.etag).toBe(etag);
        expect(await rowsOf(name)).toEqual(before);
        // The plan's version is what If-Match then needs.
        const real = await scale(name, SPLIT_1_AND_2, '', { 'If-Match': dry.headers.etag }).expect(
          200,
        );
        const at = real.body.timestamp as number;
        const retimed = (s: Segment) => (s.number >= 4 ? { ...s, startTime: at } : s);
        expect(real.body).toEqual({
          ...dry.body,
          timestamp: at,
          segments: dry.body.segments.map(retimed),
          newSegments: dry.body.newSegments.map(retimed),
        });
      });

      it('refuses what the scale would refuse, in the same order', async () => {
        const name = await stream(2);
        for (const [body, code] of [
          [{ sealedSegments: [7], newRanges: [range(0, 1)] }, 'SEGMENT_NOT_ACTIVE'],
          [{ sealedSegments: [0], newRanges: [range(0, 0.4)] }, 'RANGES_DO_NOT_MATCH'],
          [{ sealedSegments: [0, 1], newRanges: [range(0, 1)] }, 'BELOW_MIN_SEGMENTS'],
        ] as const) {
          const res = await scale(name, body, '?dryRun=true');
          expect([code, res.body.code]).toEqual([code, code]);
        }
        const stale = await scale(
          name,
          { sealedSegments: [0], newRanges: [range(0, 0.5)] },
          '?dryRun=true',
          { 'If-Match': '"1.1"' },
        );
        expect([stale.status, stale.body.code]).toEqual([412, 'PRECONDITION_FAILED']);
        const gone = await scale('none', SPLIT_1_AND_2, '?dryRun=true');
        expect([gone.status, gone.body.code]).toEqual([404, 'STREAM_NOT_FOUND']);
      });

      it('answers what the real scale does, for random scales of a stream (property)', async () => {
        const name = await stream(3);
        const cut = fc.integer({ min: 1, max: 999 }).map((n) => n / 1000);
        await fc.assert(
          fc.asyncProperty(fc.nat(), fc.uniqueArray(cut, { maxLength: 3 }), async (pick, cuts) => {
            const { segments } = await segmentsAt(name);
            const sealed = segments[pick % segments.length];
            const inside = cuts
              .map((c) => sealed.keyStart + c * (sealed.keyEnd - sealed.keyStart))
              .filter((c) => c > sealed.keyStart && c < sealed.keyEnd)
              .sort((a, b) => a - b);
            const bounds = [sealed.keyStart, ...new Set(inside), sealed.keyEnd];
            const body = {
              sealedSegments: [sealed.number],
              newRanges: bounds
                .slice(1)
                .map((end, i) => range(bounds[i], end))
                .reverse(),
            };
            const dry = await scale(name, body, '?dryRun=true').expect(200);
            const real = await scale(name, body).expect(200);
            const at = real.body.timestamp as number;
            const fresh = new Set(numbers(real.body.newSegments));
            const retimed = (s: Segment) => (fresh.has(s.number) ? { ...s, startTime: at } : s);
            expect(real.body).toEqual({
              ...dry.body,
              timestamp: at,
              segments: dry.body.segments.map(retimed),
              newSegments: dry.body.newSegments.map(retimed),
            });
            expect(await segmentsAt(name)).toEqual({
              epoch: real.body.epoch,
              segments: real.body.segments,
            });
          }),
          { numRuns: 15 },
        );
      });
    });

    describe('Idempotency-Key', () => {
      it('replays the answer of a retry and scales once', async () => {
        const name = await stream(4);
        const key = { 'Idempotency-Key': uniqueName('scale') };
        const first = await scale(name, SPLIT_1_AND_2, '', key).expect(200);
        const rows = await rowsOf(name);
        const again = await scale(name, SPLIT_1_AND_2, '', key).expect(200);
        expect([again.headers['idempotent-replayed'], again.headers.etag, again.body]).toEqual([
          'true',
          first.headers.etag,
          first.body,
        ]);
        expect(await rowsOf(name)).toEqual(rows);
        const other = await scale(
          name,
          { sealedSegments: [0], newRanges: [range(0, 0.25)] },
          '',
          key,
        );
        expect([other.status, other.body.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
      });

      it('keeps the answer of a dry run too, which changed nothing', async () => {
        const name = await stream(4);
        const key = { 'Idempotency-Key': uniqueName('dry') };
        const before = await rowsOf(name);
        const first = await scale(name, SPLIT_1_AND_2, '?dryRun=true', key).expect(200);
        const again = await scale(name, SPLIT_1_AND_2, '?dryRun=true', key).expect(200);
        expect([again.headers['idempotent-replayed'], again.body]).toEqual(['true', first.body]);
        expect(await rowsOf(name)).toEqual(before);
      });

      it('replays a refusal too', async () => {
        const name = await stream(2);
        const key = { 'Idempotency-Key': uniqueName('scale') };
        const body = { sealedSegments: [0, 1], newRanges: [range(0, 1)] };
        const first = await scale(name, body, '', key);
        const again = await scale(name, body, '', key);
        expect([first.status, again.status, again.headers['idempotent-replayed']]).toEqual([
          412,
          412,
          'true',
        ]);
      });
    });
  });

  describe('what else shows a manual scale', () => {
    it('the scaling events show it with its splits and merges, like any other scale', async () => {
      const name = await stream(4);
      await t.http.put(path(name)).send(byRate(1)).expect(200);
      const split = (await scale(name, SPLIT_1_AND_2).expect(200)).body as ScaleResult;
      const merged = (
        await scale(name, { sealedSegments: [0, 4, 5], newRanges: [range(0, 0.75)] }).expect(200)
      ).body as ScaleResult;
      await t.http.put(path(name)).send(fixed(3)).expect(200);
      const records = await history(name);
      const byNumber = (segments: Segment[]) => [...segments].sort((a, b) => a.number - b.number);
      expect(records.slice(1, 3)).toEqual([
        { timestamp: split.timestamp, segmentList: byNumber(split.segments), splits: 1, merges: 1 },
        {
          timestamp: merged.timestamp,
          segmentList: byNumber(merged.segments),
          splits: 0,
          merges: 1,
        },
      ]);
      expect(records.map((r) => numbers(r.segmentList))).toEqual([
        [0, 1, 2, 3],
        [0, 3, 4, 5],
        [3, 6],
        [7, 8, 9],
      ]);
    });

    it('describe shows its epoch and segments, and lastScaledAt', async () => {
      const name = await stream(4);
      const res = (await scale(name, SPLIT_1_AND_2).expect(200)).body as ScaleResult;
      const described = await t.http.get(`${path(name)}/description`).expect(200);
      expect(described.body).toMatchObject({
        currentEpoch: 1,
        activeSegments: [...res.segments].sort((a, b) => a.number - b.number),
        lastScaledAt: res.timestamp,
        configuration: expect.objectContaining(fixed(4)),
      });
    });

    it('leaves the apply document as it was: a manual scale is not configuration', async () => {
      const name = await stream(4);
      await scale(name, SPLIT_1_AND_2).expect(200);
      const plan = await t.http
        .post('/v1/apply?dryRun=true')
        .send({ scopes: [{ scopeName: scope, streams: [{ streamName: name, ...fixed(4) }] }] })
        .expect(200);
      expect(plan.body.changes).toEqual([
        expect.objectContaining({ action: 'unchanged', kind: 'scope' }),
        expect.objectContaining({ action: 'unchanged', kind: 'stream' }),
      ]);
    });
  });

  describe('GET .../segments[?at=]', () => {
    it('answers the epoch in force at a moment and its segments by keyStart', async () => {
      const name = await stream(2);
      const [epoch0] = await history(name);
      const split = (
        await scale(name, { sealedSegments: [1], newRanges: [range(0.75, 1), range(0.5, 0.75)] })
      ).body as ScaleResult;
      const now = await t.http.get(`${path(name)}/segments`).expect(200);
      expect(Object.keys(now.body)).toEqual(['epoch', 'segments']);
      expect(now.body).toEqual({ epoch: 1, segments: split.segments });
      expect(numbers(split.segments)).toEqual([0, 3, 2]);
      expect(now.headers.etag).toBe(await etagOf(name));
      const at = (ms: number) => segmentsAt(name, ms);
      expect(await at(epoch0.timestamp)).toEqual({ epoch: 0, segments: epoch0.segmentList });
      expect(await at(split.timestamp - 1)).toEqual({ epoch: 0, segments: epoch0.segmentList });
      expect(await at(split.timestamp)).toEqual({ epoch: 1, segments: split.segments });
      expect(await at(Number.MAX_SAFE_INTEGER)).toEqual({ epoch: 1, segments: split.segments });
      // Before the stream existed: its epoch 0.
      expect(await at(0)).toEqual({ epoch: 0, segments: epoch0.segmentList });
    });

    it.each(['', 'now', '-1', '1.5', '1e3', '9007199254740993', '1&at=2'])(
      'refuses at=%s with 400 naming at',
      async (value) => {
        const name = await stream(1);
        const res = await t.http.get(`${path(name)}/segments?at=${value}`).expect(400);
        expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['at']);
      },
    );

    it('answers 404 for a missing scope or stream, 400 first', async () => {
      const scopeGone = await t.http
        .get(`/v1/scopes/${uniqueName('none')}/streams/s/segments`)
        .set(PROBLEM_HEADERS);
      const streamGone = await t.http.get(`${path('none')}/segments`).set(PROBLEM_HEADERS);
      expect([scopeGone.body.code, streamGone.body.code]).toEqual([
        'SCOPE_NOT_FOUND',
        'STREAM_NOT_FOUND',
      ]);
      expect((await t.http.get(`${path('none')}/segments?at=x`)).status).toBe(400);
    });

    it('answers the segments of an internal stream too', async () => {
      const name = await stream(1);
      expect(numbers((await segmentsAt(`_MARK${name}`)).segments)).toEqual([0]);
    });
  });

  describe('GET .../segments/{number}', () => {
    it('answers a segment with its life, predecessors and successors', async () => {
      const name = await stream(2);
      const [epoch0] = await history(name);
      const split = (
        await scale(name, { sealedSegments: [1], newRanges: [range(0.5, 0.75), range(0.75, 1)] })
      ).body as ScaleResult;
      const merged = (await scale(name, { sealedSegments: [0, 2], newRanges: [range(0, 0.75)] }))
        .body as ScaleResult;
      const get = async (n: number) =>
        (await t.http.get(`${path(name)}/segments/${n}`).expect(200)).body as object;
      expect(await get(0)).toEqual({
        number: 0,
        keyStart: 0,
        keyEnd: 0.5,
        startTime: epoch0.timestamp,
        sealedTime: merged.timestamp,
        createdInEpoch: 0,
        sealedInEpoch: 2,
        predecessors: [],
        successors: [4],
      });
      expect(await get(1)).toEqual(
        expect.objectContaining({ sealedInEpoch: 1, predecessors: [], successors: [2, 3] }),
      );
      expect(await get(3)).toEqual({
        number: 3,
        keyStart: 0.75,
        keyEnd: 1,
        startTime: split.timestamp,
        createdInEpoch: 1,
        predecessors: [1],
        successors: [],
      });
      expect(await get(4)).toEqual(
        expect.objectContaining({ createdInEpoch: 2, predecessors: [0, 2], successors: [] }),
      );
    });

    it('answers 404 for a number the stream never had, 400 for one no segment can have', async () => {
      const name = await stream(2);
      const never = await t.http.get(`${path(name)}/segments/2`).set(PROBLEM_HEADERS);
      expect([never.status, never.body.code]).toEqual([404, 'SEGMENT_NOT_FOUND']);
      for (const bad of ['x', '-1', '1.5', '2147483648']) {
        const res = await t.http.get(`${path(name)}/segments/${bad}`);
        expect([bad, res.status, res.body.errors]).toEqual([
          bad,
          400,
          [{ field: 'number', message: 'must be an integer from 0 to 2147483647' }],
        ]);
      }
      const scopeGone = await t.http
        .get(`/v1/scopes/${uniqueName('none')}/streams/s/segments/0`)
        .set(PROBLEM_HEADERS);
      const streamGone = await t.http.get(`${path('none')}/segments/0`).set(PROBLEM_HEADERS);
      expect([scopeGone.body.code, streamGone.body.code]).toEqual([
        'SCOPE_NOT_FOUND',
        'STREAM_NOT_FOUND',
      ]);
    });
  });
});
