import { Validator } from '@seriousme/openapi-schema-validator';
import {
  committedDocument,
  CONTRACT,
  documentedOperations,
  OpenApiDocument,
  operationById,
  OpenApiOperation,
  SchemaObject,
  startBuiltService,
} from './support/openapi';

const PROBES: readonly string[] = CONTRACT.probeOperationIds;
const isProbeAnswer = (operation: OpenApiOperation, status: string): boolean =>
  status === '503' && PROBES.includes(operation.operationId);

/**
 * The document the built service serves: the Swagger plugin's metadata exists only in the
 * build (jest compiles without it), so these tests read it from `dist` running as a process.
 */
describe('The OpenAPI document (e2e, built service)', () => {
  let service: { baseUrl: string; stop(): Promise<void> };
  let served: OpenApiDocument;

  beforeAll(async () => {
    service = await startBuiltService();
    const res = await fetch(`${service.baseUrl}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    served = (await res.json()) as OpenApiDocument;
  });
  afterAll(() => service?.stop());

  const schema = (name: string): SchemaObject => {
    const found = served.components.schemas[name];
    if (!found) throw new Error(`no schema ${name}`);
    return found;
  };
  /** A property's own schema, or the one it refers to (`$ref`, or `allOf` of one `$ref`). */
  const property = (schemaName: string, name: string): SchemaObject => {
    const own = schema(schemaName).properties?.[name];
    if (!own) throw new Error(`no property ${schemaName}.${name}`);
    return own;
  };
  const refOf = (s: SchemaObject): string | undefined =>
    (s.$ref ?? s.allOf?.[0]?.$ref)?.replace('#/components/schemas/', '');

  describe('validity and staleness', () => {
    it('is a valid OpenAPI document', async () => {
      const result = await new Validator().validate(served as unknown as Record<string, unknown>);
      expect(result.errors).toBeUndefined();
      expect(result.valid).toBe(true);
      expect(served.openapi).toMatch(/^3\.[01]\./);
    });

    it('is the committed openapi.json (run `npm run openapi` and commit it when this fails)', () => {
      try {
        expect(committedDocument()).toEqual(served);
      } catch (error) {
        throw new Error(
          'openapi.json is stale: the service serves another document. ' +
            'Run `npm run openapi` and commit openapi.json.\n' +
            '(Received: the committed file; Expected: what the built service serves.)\n\n' +
            (error instanceof Error ? error.message : String(error)),
          { cause: error },
        );
      }
    });

    it('serves the same document as YAML at /openapi.yaml', async () => {
      const res = await fetch(`${service.baseUrl}/openapi.yaml`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/yaml/);
      const text = await res.text();
      expect(text.trimStart()).not.toMatch(/^\{/);
      // The validator parses YAML text itself (with the `yaml` package) before validating it.
      const validator = new Validator();
      const result = await validator.validate(text);
      expect(result.errors).toBeUndefined();
      expect(result.valid).toBe(true);
      expect(validator.specification).toEqual(served);
    });

    it('serves Swagger UI at /docs from the installed assets, not a CDN', async () => {
      const page = await fetch(`${service.baseUrl}/docs`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await page.text();
      expect(html).toContain('swagger-ui');
      expect(html).not.toMatch(/(src|href)=["']?(https?:)?\/\//);
      for (const asset of ['swagger-ui-bundle.js', 'swagger-ui.css', 'swagger-ui-init.js']) {
        const res = await fetch(`${service.baseUrl}/docs/${asset}`);
        expect([asset, res.status]).toEqual([asset, 200]);
      }
    });

    it('leaves the documentation routes out of the document', () => {
      const paths = Object.keys(served.paths);
      expect(paths.filter((p) => /^\/(docs|openapi)/.test(p))).toEqual([]);
    });
  });

  describe('the contract', () => {
    it('says version 0.0.1 under the Apache 2.0 license', () => {
      expect(served.info.version).toBe('0.0.1');
      expect(served.info.license).toEqual({
        name: 'Apache 2.0',
        url: 'https://www.apache.org/licenses/LICENSE-2.0',
      });
      expect(served.info.title).toMatch(/Tributary/);
    });

    it("has the contract's four tags with their descriptions", () => {
      expect(
        Object.fromEntries((served.tags ?? []).map((tag) => [tag.name, tag.description])),
      ).toEqual(CONTRACT.tags);
    });

    it.each(['Scopes', 'Streams', 'ReaderGroups'] as const)(
      "has every %s operation of the contract, by the contract's operationId",
      (tag) => {
        const ids = documentedOperations(served)
          .filter((o) => o.operation.tags?.includes(tag))
          .map((o) => o.operation.operationId);
        expect(ids).toEqual(expect.arrayContaining([...CONTRACT.operationIds[tag]]));
      },
    );

    it('has the Health operations and schemas of the contract, and the probes', () => {
      const ids = documentedOperations(served).map((o) => o.operation.operationId);
      const missing = [...CONTRACT.operationIds.Health, ...CONTRACT.probeOperationIds].filter(
        (id) => !ids.includes(id),
      );
      const missingSchemas = CONTRACT.healthSchemas.filter((n) => !served.components.schemas[n]);
      expect({ missing, missingSchemas }).toEqual({ missing: [], missingSchemas: [] });
      for (const id of CONTRACT.operationIds.Health) {
        expect([id, operationById(served, id).operation.tags]).toEqual([id, ['Health']]);
      }
    });

    it('gives every operation a unique operationId and one of the four tags', () => {
      const operations = documentedOperations(served);
      const ids = operations.map((o) => o.operation.operationId);
      expect(new Set(ids).size).toBe(ids.length);
      for (const { method, path, operation } of operations) {
        expect([method, path, operation.tags?.length]).toEqual([method, path, 1]);
        expect(Object.keys(CONTRACT.tags)).toContain(operation.tags?.[0]);
      }
    });

    it('marks the reader-group writes, the probes, the audit list, the change feed, whoami and explain, describe and apply, scope policies, and only them, as extensions', () => {
      const extensions = documentedOperations(served)
        .filter((o) => o.operation['x-extension'] === true)
        .map((o) => o.operation.operationId);
      expect(extensions.sort()).toEqual(
        [
          ...CONTRACT.extensionOperationIds,
          ...CONTRACT.probeOperationIds,
          ...CONTRACT.auditOperationIds,
          ...CONTRACT.feedOperationIds,
          ...CONTRACT.authOperationIds,
          ...CONTRACT.streamExtensionOperationIds,
          ...CONTRACT.applyOperationIds,
          ...CONTRACT.policyOperationIds,
        ].sort(),
      );
      for (const id of CONTRACT.policyOperationIds) {
        expect(operationById(served, id).operation.tags).toEqual(['Scopes']);
      }
      for (const id of CONTRACT.extensionOperationIds) {
        expect(operationById(served, id).operation.tags).toEqual(['ReaderGroups']);
      }
      for (const id of CONTRACT.streamExtensionOperationIds) {
        expect(operationById(served, id).operation.tags).toEqual(['Streams']);
      }
    });

    it("names the schemas as the contract does, with the contract's fields", () => {
      const fields: Record<string, string[]> = {
        ScopeProperty: ['scopeName'],
        CreateScopeRequest: ['scopeName'],
        ScopesList: ['scopes'],
        StreamProperty: ['scopeName', 'streamName', 'scalingPolicy', 'retentionPolicy', 'tags'],
        StreamsList: ['streams'],
        CreateStreamRequest: [
          'streamName',
          'scalingPolicy',
          'retentionPolicy',
          'streamTags',
          'timestampAggregationTimeout',
          'rolloverSizeBytes',
        ],
        UpdateStreamRequest: [
          'scalingPolicy',
          'retentionPolicy',
          'streamTags',
          'timestampAggregationTimeout',
          'rolloverSizeBytes',
        ],
        ScalingConfig: ['type', 'targetRate', 'scaleFactor', 'minSegments'],
        RetentionConfig: [
          'type',
          'value',
          'timeBasedRetention',
          'maxValue',
          'maxTimeBasedRetention',
        ],
        TimeBasedRetention: ['days', 'hours', 'minutes'],
        StreamState: ['streamState'],
        ReaderGroupsList: ['readerGroups'],
        ReaderGroupProperty: ['scopeName', 'readerGroupName', 'streamList', 'onlineReaderIds'],
        ScalingEventList: ['scalingEvents'],
        ScaleMetadata: ['timestamp', 'segmentList', 'splits', 'merges'],
        Segment: ['number', 'startTime', 'keyStart', 'keyEnd'],
      };
      expect(Object.keys(fields).sort()).toEqual([...CONTRACT.schemas].sort());
      for (const [name, expected] of Object.entries(fields)) {
        expect([name, Object.keys(schema(name).properties ?? {}).sort()]).toEqual([
          name,
          expect.arrayContaining(expected),
        ]);
      }
      expect(schema('UpdateStreamRequest').properties).not.toHaveProperty('streamName');
      expect(
        Object.keys(schema('ReaderGroupsList').properties!.readerGroups.items!.properties!),
      ).toEqual(['readerGroupName']);
    });

    it('refers to the named schemas where the contract does', () => {
      const refs: [string, string, string][] = [
        ['StreamProperty', 'scalingPolicy', 'ScalingConfig'],
        ['StreamProperty', 'retentionPolicy', 'RetentionConfig'],
        ['CreateStreamRequest', 'scalingPolicy', 'ScalingConfig'],
        ['UpdateStreamRequest', 'retentionPolicy', 'RetentionConfig'],
        ['RetentionConfig', 'timeBasedRetention', 'TimeBasedRetention'],
        ['RetentionConfig', 'maxTimeBasedRetention', 'TimeBasedRetention'],
      ];
      for (const [owner, name, target] of refs) {
        expect([owner, name, refOf(property(owner, name))]).toEqual([owner, name, target]);
      }
      const items: [string, string, string][] = [
        ['ScopesList', 'scopes', 'ScopeProperty'],
        ['StreamsList', 'streams', 'StreamProperty'],
        ['ScalingEventList', 'scalingEvents', 'ScaleMetadata'],
        ['ScaleMetadata', 'segmentList', 'Segment'],
      ];
      for (const [owner, name, target] of items) {
        const { type, items: itemSchema } = property(owner, name);
        expect([owner, name, type, refOf(itemSchema!)]).toEqual([owner, name, 'array', target]);
      }
      for (const [owner, name] of [
        ['StreamProperty', 'tags'],
        ['CreateStreamRequest', 'streamTags'],
        ['ReaderGroupProperty', 'streamList'],
        ['ReaderGroupProperty', 'onlineReaderIds'],
      ]) {
        expect([owner, name, property(owner, name)]).toEqual([
          owner,
          name,
          expect.objectContaining({ type: 'array', items: { type: 'string' } }),
        ]);
      }
    });

    it("has the contract's enum values", () => {
      expect(property('ScalingConfig', 'type')).toMatchObject({
        type: 'string',
        enum: ['FIXED_NUM_SEGMENTS', 'BY_RATE_IN_KBYTES_PER_SEC', 'BY_RATE_IN_EVENTS_PER_SEC'],
      });
      expect(property('RetentionConfig', 'type')).toMatchObject({
        type: 'string',
        enum: ['LIMITED_DAYS', 'LIMITED_SIZE_MB'],
      });
      expect(property('StreamState', 'streamState')).toMatchObject({
        type: 'string',
        enum: ['SEALED'],
      });
      const filterType = operationById(served, 'listStreams').operation.parameters?.find(
        (p) => p.name === 'filter_type',
      );
      expect(filterType).toMatchObject({
        in: 'query',
        required: false,
        schema: { type: 'string', enum: ['showInternalStreams', 'tag'] },
      });
    });

    it("has the contract's int32, int64 and double formats", () => {
      const formats: [string, string, string, string][] = [
        ['ScalingConfig', 'targetRate', 'integer', 'int32'],
        ['ScalingConfig', 'scaleFactor', 'integer', 'int32'],
        ['ScalingConfig', 'minSegments', 'integer', 'int32'],
        ['RetentionConfig', 'value', 'integer', 'int64'],
        ['RetentionConfig', 'maxValue', 'integer', 'int64'],
        ['TimeBasedRetention', 'days', 'integer', 'int64'],
        ['TimeBasedRetention', 'hours', 'integer', 'int64'],
        ['TimeBasedRetention', 'minutes', 'integer', 'int64'],
        ['CreateStreamRequest', 'rolloverSizeBytes', 'integer', 'int64'],
        ['CreateStreamRequest', 'timestampAggregationTimeout', 'integer', 'int64'],
        ['UpdateStreamRequest', 'rolloverSizeBytes', 'integer', 'int64'],
        ['UpdateStreamRequest', 'timestampAggregationTimeout', 'integer', 'int64'],
        ['StreamProperty', 'rolloverSizeBytes', 'integer', 'int64'],
        ['StreamProperty', 'timestampAggregationTimeout', 'integer', 'int64'],
        ['ScaleMetadata', 'timestamp', 'integer', 'int64'],
        ['ScaleMetadata', 'splits', 'integer', 'int64'],
        ['ScaleMetadata', 'merges', 'integer', 'int64'],
        ['Segment', 'number', 'integer', 'int32'],
        ['Segment', 'startTime', 'integer', 'int64'],
        ['Segment', 'keyStart', 'number', 'double'],
        ['Segment', 'keyEnd', 'number', 'double'],
      ];
      for (const [owner, name, type, format] of formats) {
        const { type: actualType, format: actualFormat } = property(owner, name);
        expect([owner, name, actualType, actualFormat]).toEqual([owner, name, type, format]);
      }
      const query = operationById(served, 'getScalingEvents').operation.parameters ?? [];
      for (const name of ['from', 'to']) {
        expect(query.find((p) => p.name === name)).toMatchObject({
          in: 'query',
          required: true,
          schema: { type: 'integer', format: 'int64' },
        });
      }
    });

    it('takes the request bodies the contract names', () => {
      const bodies: [string, string][] = [
        ['createScope', 'CreateScopeRequest'],
        ['createStream', 'CreateStreamRequest'],
        ['updateStream', 'UpdateStreamRequest'],
        ['updateStreamState', 'StreamState'],
      ];
      for (const [id, name] of bodies) {
        const body = operationById(served, id).operation.requestBody;
        expect([id, refOf(body!.content['application/json'].schema)]).toEqual([id, name]);
      }
    });
  });

  describe('request bodies', () => {
    /** The paths of the lists without `maxItems` in `s` and every schema it refers to. */
    function unboundedLists(s: SchemaObject, at: string, seen: Set<string>): string[] {
      const ref = refOf(s);
      if (ref !== undefined) {
        if (seen.has(ref)) return [];
        seen.add(ref);
        return unboundedLists(schema(ref), ref, seen);
      }
      const own = s.type === 'array' && s.maxItems === undefined ? [at] : [];
      const items = s.items ? unboundedLists(s.items, `${at}[]`, seen) : [];
      const fields = Object.entries(s.properties ?? {}).flatMap(([name, field]) =>
        unboundedLists(field, `${at}.${name}`, seen),
      );
      return [...own, ...items, ...fields];
    }

    it('documents a maximum for every list a request body holds', () => {
      const unbounded = documentedOperations(served).flatMap(({ operation }) =>
        Object.values(operation.requestBody?.content ?? {}).flatMap(({ schema: body }) =>
          unboundedLists(body, operation.operationId, new Set()),
        ),
      );
      expect(unbounded).toEqual([]);
      expect(property('ApplyDocument', 'scopes').maxItems).toBe(10_000);
      expect(property('CreateStreamRequest', 'streamTags').maxItems).toBe(1000);
      expect(property('ScaleStreamRequest', 'sealedSegments').maxItems).toBe(1000);
    });
  });

  describe('responses', () => {
    const codes = (id: string) => Object.keys(operationById(served, id).operation.responses);

    it.each([
      ['createScope', ['201', '400', '409', '413', '415', '422', '500', '503']],
      ['listScopes', ['200', '400', '500', '503']],
      ['deleteScope', ['204', '400', '404', '412', '500', '503']],
      ['createStream', ['201', '400', '404', '409', '413', '415', '422', '500', '503']],
      ['updateStream', ['200', '400', '404', '412', '413', '415', '500', '503']],
      ['deleteStream', ['204', '400', '404', '412', '500', '503']],
      ['getScalingEvents', ['200', '400', '404', '500', '503']],
      ['updateStreamState', ['200', '400', '404', '412', '413', '415', '500', '503']],
      ['getScope', ['200', '304', '400', '404', '500', '503']],
      ['getStream', ['200', '304', '400', '404', '500', '503']],
      ['describeStream', ['200', '400', '404', '500', '503']],
      ['scaleStream', ['200', '400', '404', '409', '412', '413', '415', '422', '500', '503']],
      ['getSegments', ['200', '400', '404', '500', '503']],
      ['getSegment', ['200', '400', '404', '500', '503']],
      ['getReaderGroup', ['200', '304', '400', '404', '500', '503']],
      ['createReaderGroup', ['201', '400', '404', '409', '413', '415', '422', '500', '503']],
      ['deleteReaderGroup', ['204', '400', '404', '412', '500', '503']],
      ['setReaderOnline', ['204', '400', '404', '412', '500', '503']],
      ['setReaderOffline', ['204', '400', '404', '412', '500', '503']],
    ])('%s answers exactly %j, and 401, 403 and 429', (id, expected) => {
      expect(codes(id).sort()).toEqual([...expected, '401', '403', '429'].sort());
    });

    it('documents conditional requests: ETag answers, If-None-Match reads, If-Match writes', () => {
      const headerParameters = (id: string) =>
        (operationById(served, id).operation.parameters ?? [])
          .filter((p) => p.in === 'header')
          .map((p) => p.name);
      const tagged = [
        ['createScope', '201'],
        ['getScope', '200'],
        ['createStream', '201'],
        ['getStream', '200'],
        ['updateStream', '200'],
        ['updateStreamState', '200'],
        ['describeStream', '200'],
        ['scaleStream', '200'],
        ['getSegments', '200'],
        ['createReaderGroup', '201'],
        ['getReaderGroup', '200'],
      ];
      for (const [id, status] of tagged) {
        const { responses } = operationById(served, id).operation;
        expect([id, responses[status].headers?.ETag?.schema]).toEqual([
          id,
          { type: 'string', example: expect.any(String) },
        ]);
      }
      for (const id of ['getScope', 'getStream', 'getReaderGroup']) {
        expect([id, headerParameters(id)]).toEqual([id, ['If-None-Match']]);
        const notModified = operationById(served, id).operation.responses['304'];
        expect([id, notModified.content, notModified.headers?.ETag]).toEqual([
          id,
          undefined,
          expect.anything(),
        ]);
      }
      for (const id of [
        'updateStream',
        'updateStreamState',
        'deleteStream',
        'deleteScope',
        'deleteReaderGroup',
        'setReaderOnline',
        'setReaderOffline',
      ]) {
        expect([id, headerParameters(id)]).toEqual([id, ['If-Match']]);
        expect(operationById(served, id).operation.responses['412'].description).toContain(
          'PRECONDITION_FAILED',
        );
      }
      for (const id of [
        'listScopes',
        'listStreams',
        'describeStream',
        'getScalingEvents',
        'getSegments',
        'getSegment',
      ]) {
        expect([id, headerParameters(id)]).toEqual([id, []]);
      }
      expect(headerParameters('scaleStream')).toEqual(['If-Match', 'Idempotency-Key']);
      const refusals = operationById(served, 'scaleStream').operation.responses;
      for (const [status, code] of [
        ['400', 'RANGES_DO_NOT_MATCH'],
        ['412', 'STREAM_SEALED'],
        ['412', 'SEGMENT_NOT_ACTIVE'],
        ['412', 'BELOW_MIN_SEGMENTS'],
        ['412', 'PRECONDITION_FAILED'],
      ]) {
        expect([code, refusals[status].description]).toEqual([code, expect.stringContaining(code)]);
      }
    });

    it('documents Idempotency-Key on every POST, and on no other method', () => {
      const operations = documentedOperations(served);
      const posts = operations.filter((o) => o.method === 'post');
      expect(posts.map((o) => o.operation.operationId).sort()).toEqual(
        expect.arrayContaining(['createReaderGroup', 'createScope', 'createStream']),
      );
      for (const { operation } of posts) {
        const id = operation.operationId;
        const key = operation.parameters?.find((p) => p.name === 'Idempotency-Key');
        expect([id, key]).toEqual([
          id,
          expect.objectContaining({
            in: 'header',
            required: false,
            schema: expect.objectContaining({ minLength: 1, maxLength: 255 }),
          }),
        ]);
        const success = Object.entries(operation.responses).filter(([s]) => s.startsWith('2'));
        for (const [status, response] of success) {
          expect([id, status, response.headers?.['Idempotent-Replayed']]).toEqual([
            id,
            status,
            expect.anything(),
          ]);
        }
        expect([id, operation.responses['422']?.description]).toEqual([
          id,
          expect.stringContaining('IDEMPOTENCY_KEY_REUSED'),
        ]);
        expect([id, operation.responses['409']?.description]).toEqual([
          id,
          expect.stringContaining('IDEMPOTENCY_KEY_IN_USE'),
        ]);
        expect([id, operation.responses['409']?.headers?.['Retry-After']]).toEqual([
          id,
          expect.anything(),
        ]);
      }
      for (const { method, operation } of operations.filter((o) => o.method !== 'post')) {
        expect([method, operation.operationId, operation.parameters ?? []]).toEqual([
          method,
          operation.operationId,
          expect.not.arrayContaining([expect.objectContaining({ name: 'Idempotency-Key' })]),
        ]);
      }
    });

    it('offers HTTP Basic and bearer tokens as optional security schemes', () => {
      const document = served as OpenApiDocument & {
        security?: object[];
        components: { securitySchemes?: Record<string, object> };
      };
      expect(document.components.securitySchemes?.basic).toMatchObject({
        type: 'http',
        scheme: 'basic',
      });
      expect(document.components.securitySchemes?.bearer).toEqual({
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: expect.stringContaining('AUTH_OIDC_ISSUER'),
      });
      expect(document.security).toEqual([{}, { basic: [] }, { bearer: [] }]);
      const unauthenticated = operationById(served, 'getStream').operation.responses['401'];
      expect(unauthenticated.headers?.['WWW-Authenticate']).toBeDefined();
      const limited = operationById(served, 'getStream').operation.responses['429'];
      expect(limited.headers?.['Retry-After']).toBeDefined();
    });

    it('documents the success bodies of the contract', () => {
      const bodies: [string, string, string][] = [
        ['createScope', '201', 'ScopeProperty'],
        ['listScopes', '200', 'ScopesList'],
        ['getStream', '200', 'StreamProperty'],
        ['listStreams', '200', 'StreamsList'],
        ['getScalingEvents', '200', 'ScalingEventList'],
        ['updateStreamState', '200', 'StreamState'],
        ['listReaderGroups', '200', 'ReaderGroupsList'],
        ['getReaderGroup', '200', 'ReaderGroupProperty'],
      ];
      for (const [id, status, name] of bodies) {
        const content = operationById(served, id).operation.responses[status].content;
        expect([id, refOf(content!['application/json'].schema)]).toEqual([id, name]);
      }
      expect(operationById(served, 'deleteStream').operation.responses['204'].content).toBe(
        undefined,
      );
    });

    it('documents 500 on every operation', () => {
      for (const { operation } of documentedOperations(served)) {
        expect([operation.operationId, operation.responses['500']]).toEqual([
          operation.operationId,
          expect.anything(),
        ]);
      }
    });

    it('describes every error with the Problem schema under application/problem+json', () => {
      for (const { operation } of documentedOperations(served)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          if (Number(status) < 400) continue;
          // A probe's 503 is its answer (not ready, not alive), with the probe's own body.
          if (isProbeAnswer(operation, status)) continue;
          expect([operation.operationId, status, Object.keys(response.content ?? {})]).toEqual([
            operation.operationId,
            status,
            ['application/problem+json'],
          ]);
          expect(refOf(response.content!['application/problem+json'].schema)).toBe('Problem');
          // 404, 409, 412 and 500 have an empty body unless the request asks for a problem.
          if (['404', '409', '412', '500'].includes(status)) {
            expect(response.description).toMatch(
              /empty unless .*Accept.*application\/problem\+json/,
            );
          }
        }
      }
    });

    it("documents the probes' 200 and 503 answers with their bodies", () => {
      for (const [id, body] of [
        ['getLivez', 'LivenessAnswer'],
        ['getReadyz', 'ReadinessAnswer'],
      ]) {
        const { responses } = operationById(served, id).operation;
        for (const status of ['200', '503']) {
          expect([
            id,
            status,
            refOf(responses[status].content!['application/json'].schema),
          ]).toEqual([id, status, body]);
        }
      }
      expect(refOf(property('ReadinessAnswer', 'status'))).toBe('HealthStatus');
    });

    it('says when to retry a 503', () => {
      const response = operationById(served, 'createStream').operation.responses['503'];
      expect(response.headers?.['Retry-After']?.schema).toMatchObject({ type: 'integer' });
    });

    it('has the problem document as the exception filter writes it', () => {
      const problem = schema('Problem');
      expect(Object.keys(problem.properties ?? {}).sort()).toEqual(
        [
          'code',
          'conflicts',
          'detail',
          'errors',
          'instance',
          'missing',
          'more',
          'requestId',
          'status',
          'title',
          'type',
          'violations',
        ].sort(),
      );
      const violations = property('Problem', 'violations');
      expect(Object.keys(schema(refOf(violations.items!)!).properties ?? {}).sort()).toEqual([
        'actual',
        'detail',
        'limit',
        'resource',
        'rule',
      ]);
      expect(property('Problem', 'status')).toMatchObject({ type: 'integer', format: 'int32' });
      const errors = property('Problem', 'errors');
      expect(errors.type).toBe('array');
      const item = schema(refOf(errors.items!)!);
      expect(Object.keys(item.properties ?? {}).sort()).toEqual(['field', 'message']);
      expect(problem.required).not.toContain('errors');
      expect(problem.required).not.toContain('more');
      expect(property('Problem', 'more')).toMatchObject({ type: 'integer', minimum: 1 });
    });
  });
});
