import fc from 'fast-check';
import { recordFigure, SOAK_TEST_TIMEOUT_MS, soakScale } from './support/figures';
import { brokenInvariants } from './support/invariants';
import { startTestApp, TestApp } from './support/test-app';

jest.setTimeout(SOAK_TEST_TIMEOUT_MS);

const RUNS = soakScale(400, 20_000);

/** Names that exist, so that fuzzed requests also reach the code behind the 404s. */
const SCOPE = 'fz';
const STREAM = 's1';
const GROUP = 'g1';

/** Path segments as an attacker writes them: already encoded, or with separators in them. */
const ADVERSARIAL_SEGMENTS = [
  '..',
  '.',
  '%2e%2e',
  '%2F',
  'a%2Fb',
  '%00',
  'a%00b',
  '%FF',
  '%E0%A4%A',
  '%',
  "x'%20OR%201=1--",
  '%27%3B%20DROP%20TABLE%20scopes%3B--',
  '_MARKs1',
  '_RGg1',
  '_system',
  'a'.repeat(251),
  'a'.repeat(256),
  'a'.repeat(5000),
  '%E5%90%8D%E5%89%8D',
  '%F0%9F%92%A5',
  '%0A%0D',
  '%20',
];

const segment = fc.oneof(
  fc.constantFrom(SCOPE, STREAM, GROUP, 'r1', 'missing'),
  fc.constantFrom(...ADVERSARIAL_SEGMENTS),
  fc.string({ unit: 'binary', maxLength: 300 }).map(encodeURIComponent),
  fc.stringMatching(/^[A-Za-z0-9.-]{1,20}$/),
);

/** JSON numbers at and beyond the edges: int32, 2^53, int64, doubles. */
const edgeNumber = fc.oneof(
  fc.constantFrom(
    0,
    -1,
    1,
    2 ** 31 - 1,
    2 ** 31,
    2 ** 53 - 1,
    2 ** 53,
    2 ** 63,
    -(2 ** 63),
    1e308,
    -0,
    0.5,
  ),
  fc.double(),
  fc.integer(),
);

const scalarOrJunk = fc.oneof(
  edgeNumber,
  fc.string({ unit: 'grapheme', maxLength: 50 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom(
    null,
    true,
    false,
    [],
    {},
    '',
    'a'.repeat(10_000),
    '1',
    '\u0000',
    "'; DROP TABLE streams; --",
  ),
);

const scalingPolicy = fc.record(
  {
    type: fc.oneof(
      fc.constantFrom(
        'FIXED_NUM_SEGMENTS',
        'BY_RATE_IN_KBYTES_PER_SEC',
        'BY_RATE_IN_EVENTS_PER_SEC',
      ),
      scalarOrJunk,
    ),
    minSegments: fc.oneof(fc.integer({ min: 1, max: 20 }), scalarOrJunk),
    targetRate: fc.oneof(fc.integer({ min: 1, max: 100 }), scalarOrJunk),
    scaleFactor: fc.oneof(fc.integer({ min: 1, max: 10 }), scalarOrJunk),
  },
  { requiredKeys: [] },
);

const retentionPolicy = fc.record(
  {
    type: fc.oneof(fc.constantFrom('LIMITED_DAYS', 'LIMITED_SIZE_MB'), scalarOrJunk),
    value: fc.oneof(fc.integer({ min: 0, max: 1000 }), scalarOrJunk),
    maxValue: scalarOrJunk,
    timeBasedRetention: fc.oneof(
      fc.record({ days: scalarOrJunk, hours: scalarOrJunk, minutes: scalarOrJunk }),
      scalarOrJunk,
    ),
  },
  { requiredKeys: [] },
);

/** A key range of a scale: bounds near the key space's, or junk. */
const keyBound = fc.oneof(fc.constantFrom(0, 0.25, 0.5, 1, 0.1 + 0.2), fc.double(), scalarOrJunk);
const keyRange = fc.record({ keyStart: keyBound, keyEnd: keyBound }, { requiredKeys: [] });

/** Bodies close enough to valid to pass the first checks, and plain junk. */
const body = fc.oneof(
  fc.record(
    {
      scopeName: fc.oneof(fc.stringMatching(/^[A-Za-z0-9.-]{1,12}$/), scalarOrJunk),
      streamName: fc.oneof(fc.stringMatching(/^[A-Za-z0-9.-]{1,12}$/), scalarOrJunk),
      readerGroupName: fc.oneof(fc.stringMatching(/^[A-Za-z0-9.-]{1,12}$/), scalarOrJunk),
      streams: fc.oneof(
        fc.array(fc.oneof(fc.constant(STREAM), fc.constant(`${SCOPE}/${STREAM}`), scalarOrJunk)),
        scalarOrJunk,
      ),
      scalingPolicy: fc.oneof(scalingPolicy, scalarOrJunk),
      retentionPolicy: fc.oneof(retentionPolicy, scalarOrJunk),
      streamTags: fc.oneof(
        fc.array(fc.oneof(fc.string({ maxLength: 10 }), scalarOrJunk), { maxLength: 200 }),
        scalarOrJunk,
      ),
      rolloverSizeBytes: fc.oneof(fc.integer({ min: 0 }), scalarOrJunk),
      timestampAggregationTimeout: fc.oneof(fc.integer({ min: 0 }), scalarOrJunk),
      streamState: fc.oneof(fc.constant('SEALED'), scalarOrJunk),
      sealedSegments: fc.oneof(
        fc.array(fc.oneof(fc.integer({ min: 0, max: 3 }), scalarOrJunk), { maxLength: 4 }),
        scalarOrJunk,
      ),
      newRanges: fc.oneof(
        fc.array(fc.oneof(keyRange, scalarOrJunk), { maxLength: 4 }),
        scalarOrJunk,
      ),
      __proto__: scalarOrJunk,
      constructor: scalarOrJunk,
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue({ maxDepth: 4 }),
  fc.anything({ maxDepth: 3 }),
);

/** Raw bodies that are not JSON objects, or not JSON at all. */
const rawBody = fc.oneof(
  body.map((value) => JSON.stringify(value) ?? ''),
  fc.constantFrom(
    '',
    '{',
    '[]',
    'null',
    '"x"',
    '{"scopeName": 1e999}',
    '{"scopeName": "a", "scopeName": "b"}',
    '\uFEFF{"scopeName":"bom"}',
    '['.repeat(5000) + ']'.repeat(5000),
    `{"a":${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}}`,
    `{"streamName":"${'x'.repeat(300_000)}"}`,
  ),
  fc.string({ unit: 'binary', maxLength: 200 }),
);

const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'application/problem+json',
  'text/plain',
  'application/x-www-form-urlencoded',
  undefined,
);

const queryValue = fc.oneof(
  fc.constantFrom(
    'showInternalStreams',
    'tag',
    '',
    '0',
    '-1',
    '9007199254740993',
    '1e3',
    'NaN',
    '%00',
    '%FF',
  ),
  fc.string({ unit: 'binary', maxLength: 30 }).map(encodeURIComponent),
  edgeNumber.map(String),
);
const query = fc
  .array(
    fc.tuple(
      fc.constantFrom(
        'filter_type',
        'filter_value',
        'resource',
        'principal',
        'limit',
        'from',
        'to',
        'x',
        'from[]',
        'to[a]',
        'at',
        'dryRun',
      ),
      queryValue,
    ),
    { maxLength: 4 },
  )
  .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}` : ''));

/** Every operation of the API, with its path made of fuzzed segments. */
const request = fc.record({
  method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
  path: fc.oneof(
    fc.constant('/v1/scopes'),
    fc.constant('/v1/audit'),
    fc.tuple(segment).map(([s]) => `/v1/scopes/${s}`),
    fc.tuple(segment).map(([s]) => `/v1/scopes/${s}/streams`),
    fc.tuple(segment, segment).map(([s, t]) => `/v1/scopes/${s}/streams/${t}`),
    fc.tuple(segment, segment).map(([s, t]) => `/v1/scopes/${s}/streams/${t}/state`),
    fc.tuple(segment, segment).map(([s, t]) => `/v1/scopes/${s}/streams/${t}/scaling-events`),
    fc.tuple(segment, segment).map(([s, t]) => `/v1/scopes/${s}/streams/${t}/scale`),
    fc.tuple(segment, segment).map(([s, t]) => `/v1/scopes/${s}/streams/${t}/segments`),
    fc.tuple(segment, segment).map(([s, t]) => `/v1/scopes/${s}/streams/${t}/load`),
    fc
      .tuple(segment, segment, segment)
      .map(([s, t, n]) => `/v1/scopes/${s}/streams/${t}/segments/${n}`),
    fc.tuple(segment).map(([s]) => `/v1/scopes/${s}/readergroups`),
    fc.tuple(segment, segment).map(([s, g]) => `/v1/scopes/${s}/readergroups/${g}`),
    fc
      .tuple(segment, segment, segment)
      .map(([s, g, r]) => `/v1/scopes/${s}/readergroups/${g}/readers/${r}`),
    fc.tuple(segment).map(([s]) => `/v1/health/${s}`),
    fc
      .tuple(fc.constantFrom('details', 'status', 'liveness', 'readiness'), segment)
      .map(([route, s]) => `/v1/health/${route}/${s}`),
  ),
  query,
  contentType,
  body: fc.option(rawBody, { nil: undefined }),
});

/** A digest of every table: a refused request must leave it unchanged. */
const DIGEST = `
  SELECT md5(coalesce(string_agg(row, E'\\n' ORDER BY row), '')) AS digest FROM (
    SELECT 'scope ' || s::text AS row FROM scopes s
    UNION ALL SELECT 'stream ' || s::text FROM streams s
    UNION ALL SELECT 'epoch ' || e::text FROM stream_epochs e
    UNION ALL SELECT 'segment ' || g::text FROM stream_segments g
    UNION ALL SELECT 'numbering ' || n::text FROM segment_numbering n
    UNION ALL SELECT 'group ' || g::text FROM reader_groups g
    UNION ALL SELECT 'group stream ' || g::text FROM reader_group_streams g
    UNION ALL SELECT 'reader ' || r::text FROM reader_group_readers r) rows`;

/** Hostile input never makes a 500, a crash or a partial write. */
describe('Fuzzing every operation (e2e)', () => {
  let t: TestApp;
  const digest = async (): Promise<string> => (await t.sql<{ digest: string }>(DIGEST))[0].digest;

  beforeAll(async () => {
    t = await startTestApp({ MAX_BODY_BYTES: String(256 * 1024) });
    await t.http.post('/v1/scopes').send({ scopeName: SCOPE }).expect(201);
    await t.http.post(`/v1/scopes/${SCOPE}/streams`).send({ streamName: STREAM }).expect(201);
    await t.http
      .post(`/v1/scopes/${SCOPE}/readergroups`)
      .send({ readerGroupName: GROUP, streams: [STREAM] })
      .expect(201);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers every request below 500, with a request id, and writes nothing when it refuses', async () => {
    let cases = 0;
    await fc.assert(
      fc.asyncProperty(
        request,
        async ({ method, path, query: q, contentType: type, body: raw }) => {
          cases++;
          const before = await digest();
          let call = t.http[method.toLowerCase() as 'get'](`${path}${q}`);
          if (type !== undefined) call = call.set('Content-Type', type);
          const res = raw === undefined ? await call : await call.send(raw);
          const where = `${method} ${path}${q} (${res.status})`;
          expect({ where, serverError: res.status >= 500 }).toEqual({ where, serverError: false });
          expect(res.headers['x-request-id']).toEqual(expect.any(String));
          if (res.status >= 400)
            expect({ where, digest: await digest() }).toEqual({ where, digest: before });
        },
      ),
      { numRuns: RUNS },
    );
    await t.http.get('/ping').expect(200);
    expect(await brokenInvariants((text) => t.sql(text))).toEqual([]);
    recordFigure('fuzz cases run', cases);
  });
});
