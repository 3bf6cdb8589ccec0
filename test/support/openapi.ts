import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, ServiceProcess } from './service-process';
import { createTestDatabase } from './test-database';

/** The committed API document, written by `npm run openapi`. */
export const COMMITTED_DOCUMENT_PATH = join(__dirname, '../../openapi.json');

/**
 * What the contract (controller-admin-rest.md) names, and what the document must therefore
 * hold. Health's operations and schemas are here too: the Health tag is the contract's.
 */
export const CONTRACT = {
  tags: {
    Health: 'Health check APIs',
    ReaderGroups: 'Reader group APIs',
    Scopes: 'Scope APIs',
    Streams: 'Stream APIs',
  },
  operationIds: {
    Scopes: ['createScope', 'listScopes', 'getScope', 'deleteScope'],
    Streams: [
      'createStream',
      'listStreams',
      'getStream',
      'updateStream',
      'deleteStream',
      'getScalingEvents',
      'updateStreamState',
    ],
    ReaderGroups: ['listReaderGroups', 'getReaderGroup'],
    Health: [
      'getHealth',
      'getContributorHealth',
      'getDetails',
      'getContributorDetails',
      'getLiveness',
      'getContributorLiveness',
      'getReadiness',
      'getContributorReadiness',
      'getStatus',
      'getContributorStatus',
    ],
  },
  /** Ours: the reader-group writes, marked `x-extension: true`. */
  extensionOperationIds: [
    'createReaderGroup',
    'deleteReaderGroup',
    'setReaderOnline',
    'setReaderOffline',
  ],
  /** Ours: the audit trail's list. */
  auditOperationIds: ['listAuditEvents'],
  /** The change feed (docs/extensions.md section 8). */
  feedOperationIds: ['listEvents'],
  /** Ours: the caller about itself (docs/extensions.md section 9). */
  authOperationIds: ['whoami', 'explainAccess'],
  /** Ours: a scope's policy (docs/extensions.md section 10). */
  policyOperationIds: ['getScopePolicy', 'updateScopePolicy', 'getScopeCompliance'],
  /** Ours: declarative apply (docs/extensions.md section 5). */
  applyOperationIds: ['applyDocument'],
  /** Ours: describing a stream, its segments and scaling it by hand (docs/extensions.md sections 4 and 7). */
  streamExtensionOperationIds: [
    'describeStream',
    'scaleStream',
    'getSegments',
    'getSegment',
    'reportLoad',
    'getLoadScales',
  ],
  /** Ours: the probe routes outside `/v1`. */
  probeOperationIds: ['ping', 'getLivez', 'getReadyz'],
  schemas: [
    'ScopeProperty',
    'ScopesList',
    'CreateScopeRequest',
    'StreamProperty',
    'StreamsList',
    'CreateStreamRequest',
    'UpdateStreamRequest',
    'ScalingConfig',
    'RetentionConfig',
    'TimeBasedRetention',
    'StreamState',
    'ReaderGroupsList',
    'ReaderGroupProperty',
    'ScalingEventList',
    'ScaleMetadata',
    'Segment',
  ],
  healthSchemas: ['HealthResult', 'HealthStatus', 'HealthDetails'],
} as const;

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** The parts of an OpenAPI document these tests read. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; license?: { name: string; url?: string } };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, SchemaObject> };
}

export interface OpenApiOperation {
  operationId: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; schema?: SchemaObject }[];
  requestBody?: { content: Record<string, { schema: SchemaObject }> };
  responses: Record<
    string,
    {
      description: string;
      content?: Record<string, { schema: SchemaObject }>;
      headers?: Record<string, { schema: SchemaObject }>;
    }
  >;
  'x-extension'?: boolean;
}

export interface SchemaObject {
  type?: string;
  format?: string;
  enum?: unknown[];
  $ref?: string;
  allOf?: SchemaObject[];
  items?: SchemaObject;
  maxItems?: number;
  properties?: Record<string, SchemaObject>;
  required?: string[];
}

export function committedDocument(): OpenApiDocument {
  return JSON.parse(readFileSync(COMMITTED_DOCUMENT_PATH, 'utf8')) as OpenApiDocument;
}

export interface DocumentedOperation {
  method: string;
  path: string;
  operation: OpenApiOperation;
}

export function documentedOperations(document: OpenApiDocument): DocumentedOperation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([method, operation]) => ({ method, path, operation })),
  );
}

export function operationById(document: OpenApiDocument, id: string): DocumentedOperation {
  const found = documentedOperations(document).find((o) => o.operation.operationId === id);
  if (!found) throw new Error(`no operation ${id} in the document`);
  return found;
}

/** The built service (with the Swagger plugin's metadata) on a fresh test database. */
export async function startBuiltService(): Promise<{
  baseUrl: string;
  stop(): Promise<void>;
}> {
  const database = await createTestDatabase();
  const service = ServiceProcess.start({
    PORT: String(await freePort()),
    DATABASE_URL: database.url,
    LOG_LEVEL: 'warn',
  });
  const stop = async () => {
    await service.stop();
    await database.drop();
  };
  try {
    await service.ready();
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl: service.baseUrl, stop };
}
