import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ACCESS_STATUSES, problemResponse } from '../common/http/api-problem-responses';
import { HEALTH_DETAILS_SCHEMA } from '../health/dto/health-result.dto';
import { documentIdempotency } from '../idempotency/idempotency-openapi';

/** The contract's four tags, with its descriptions. */
export const API_TAGS = [
  { name: 'Health', description: 'Health check APIs' },
  { name: 'ReaderGroups', description: 'Reader group APIs' },
  { name: 'Scopes', description: 'Scope APIs' },
  { name: 'Streams', description: 'Stream APIs' },
] as const;

/** The contract's interface version (its section 9), not the package's version. */
export const API_VERSION = '0.0.1';

/** Where the document and Swagger UI are served; none of these is part of the document. */
export const API_DOCS_PATHS = {
  ui: '/docs',
  json: '/openapi.json',
  yaml: '/openapi.yaml',
} as const;

const DESCRIPTION = `The administrative REST interface of a stream-storage controller: scopes, streams, \
their scaling history, reader groups and health. It speaks the Pravega controller's \`/v1\` contract.

Errors the contract lists (404, 409, 412, 500) have an empty body unless the request's \`Accept\` \
includes \`application/problem+json\`; 400, 413, 415 and 503 always carry an RFC 9457 problem \
document. Operations marked \`x-extension\` are additions to the contract.`;

const AUTH_DESCRIPTION =
  'HTTP Basic, when the service runs with AUTH_ENABLED: accounts and their ACLs come from ' +
  'its accounts file, and each operation needs the permission the reference controller asks for.';

function documentConfig(): Omit<OpenAPIObject, 'paths'> {
  const builder = new DocumentBuilder()
    .setTitle('Tributary controller admin REST API')
    .setDescription(DESCRIPTION)
    .setVersion(API_VERSION)
    .setLicense('Apache 2.0', 'https://www.apache.org/licenses/LICENSE-2.0');
  for (const tag of API_TAGS) builder.addTag(tag.name, tag.description);
  builder
    .addBasicAuth({ type: 'http', scheme: 'basic', description: AUTH_DESCRIPTION }, 'basic')
    // Any operation may answer these once authentication or rate limits are turned on.
    .addGlobalResponse(...ACCESS_STATUSES.map(problemResponse));
  const config = builder.build();
  // Credentials are optional: authentication is off unless the operator turns it on.
  config.security = [{}, { basic: [] }];
  // A named map of strings: no DTO class can describe it, so it joins the scanned schemas here.
  config.components = {
    ...config.components,
    schemas: { HealthDetails: { ...HEALTH_DETAILS_SCHEMA } },
  };
  return config;
}

/**
 * The API document, derived from the controllers' and DTOs' decorators (and what the Swagger
 * CLI plugin adds to them at build time: types, optionality, comments).
 */
export function createOpenApiDocument(app: INestApplication): OpenAPIObject {
  return documentIdempotency(
    SwaggerModule.createDocument(app, documentConfig(), {
      operationIdFactory: (_controller, method) => method,
    }),
  );
}

/**
 * Serves the document as JSON and YAML, and Swagger UI from the installed `swagger-ui-dist`
 * (no CDN). The document is built on the first request, once every module is in place.
 */
export function serveApiDocs(app: INestApplication): void {
  SwaggerModule.setup(API_DOCS_PATHS.ui, app, () => createOpenApiDocument(app), {
    jsonDocumentUrl: API_DOCS_PATHS.json,
    yamlDocumentUrl: API_DOCS_PATHS.yaml,
    customSiteTitle: 'Tributary API',
    // The four tags open collapsed, each with the contract's description.
    swaggerOptions: { docExpansion: 'none' },
  });
}
