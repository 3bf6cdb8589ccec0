import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { Express } from 'express';
import type { HelmetOptions } from 'helmet';
import type { OidcIssuer } from '../auth/oidc/oidc-issuer.service';
import { AppConfig } from '../config/app-config';
import { ACCESS_STATUSES, problemResponse } from './api-problem-responses';
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

const BEARER_DESCRIPTION =
  'A JWT access token of the OpenID Connect provider the service trusts (AUTH_OIDC_ISSUER), ' +
  'when it runs with AUTH_ENABLED: its ACL claim and the ACLs of its groups grant the same ' +
  'permissions as an account. Paste the token alone, without "Bearer".';

/** The scheme of Swagger UI's sign-in at the provider, only in the document a service serves. */
const SIGN_IN_SCHEME = 'oidc';

function documentConfig(): Omit<OpenAPIObject, 'paths'> {
  const builder = new DocumentBuilder()
    .setTitle('Tributary controller admin REST API')
    .setDescription(DESCRIPTION)
    .setVersion(API_VERSION)
    .setLicense('Apache 2.0', 'https://www.apache.org/licenses/LICENSE-2.0');
  for (const tag of API_TAGS) builder.addTag(tag.name, tag.description);
  builder
    .addBasicAuth({ type: 'http', scheme: 'basic', description: AUTH_DESCRIPTION }, 'basic')
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: BEARER_DESCRIPTION },
      'bearer',
    )
    // Any operation may answer these once authentication or rate limits are turned on.
    .addGlobalResponse(...ACCESS_STATUSES.map(problemResponse));
  const config = builder.build();
  // Credentials are optional: authentication is off unless the operator turns it on.
  config.security = [{}, { basic: [] }, { bearer: [] }];
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
 * What a served document adds when Swagger UI signs in at the provider (AUTH_OIDC_UI_CLIENT_ID):
 * its OpenID Connect discovery document, which Swagger UI reads for the authorization-code flow.
 */
function withSignIn(document: OpenAPIObject, issuer: string): OpenAPIObject {
  const discovery = `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
  return {
    ...document,
    components: {
      ...document.components,
      securitySchemes: {
        ...document.components?.securitySchemes,
        [SIGN_IN_SCHEME]: {
          type: 'openIdConnect',
          openIdConnectUrl: discovery,
          description: `Sign in at ${issuer}; the access token is then sent as a bearer token.`,
        },
      },
    },
    security: [...(document.security ?? []), { [SIGN_IN_SCHEME]: [] }],
  };
}

/**
 * Signing in at the provider from the service's pages, Swagger UI's and the console's
 * (docs/extensions.md section 9), when the service has a public client for them.
 */
export function signInOptions(
  config?: AppConfig,
): { issuer: string; clientId: string } | undefined {
  if (!config?.AUTH_ENABLED || !config.AUTH_OIDC_ISSUER || !config.AUTH_OIDC_UI_CLIENT_ID) {
    return undefined;
  }
  return { issuer: config.AUTH_OIDC_ISSUER, clientId: config.AUTH_OIDC_UI_CLIENT_ID };
}

/**
 * helmet's options: its defaults, and with Swagger UI's sign-in, a Content-Security-Policy that
 * lets the page fetch the provider's discovery document and exchange the code for a token, and
 * no Cross-Origin-Opener-Policy: the sign-in window comes back from the provider's origin to
 * `oauth2-redirect.html`, which hands the code to the page that opened it.
 */
export function securityHeaders(config: AppConfig, issuer: OidcIssuer): HelmetOptions {
  if (!signInOptions(config)) return {};
  return {
    contentSecurityPolicy: {
      directives: { connectSrc: ["'self'", () => issuer.browserOrigins().join(' ')] },
    },
    crossOriginOpenerPolicy: false,
  };
}

/**
 * Serves the document as JSON and YAML, and Swagger UI from the installed `swagger-ui-dist`
 * (no CDN). The document is built on the first request, once every module is in place. With
 * AUTH_OIDC_UI_CLIENT_ID, Authorize also signs in at the provider: the authorization-code flow
 * with PKCE, for that public client, back to `/docs/oauth2-redirect.html`.
 */
export function serveApiDocs(app: INestApplication, config?: AppConfig): void {
  const signIn = signInOptions(config);
  if (signIn) {
    // Swagger UI sends the sign-in back to oauth2-redirect.html beside its own page: from
    // `/docs/`, that is `/docs/oauth2-redirect.html`, the redirect URI of its client.
    (app.getHttpAdapter().getInstance() as Express).get(API_DOCS_PATHS.ui, (req, res, next) =>
      req.path.endsWith('/') ? next() : res.redirect(301, `${API_DOCS_PATHS.ui}/`),
    );
  }
  SwaggerModule.setup(
    API_DOCS_PATHS.ui,
    app,
    () => {
      const document = createOpenApiDocument(app);
      return signIn ? withSignIn(document, signIn.issuer) : document;
    },
    {
      jsonDocumentUrl: API_DOCS_PATHS.json,
      yamlDocumentUrl: API_DOCS_PATHS.yaml,
      customSiteTitle: 'Tributary API',
      swaggerOptions: {
        // The four tags open collapsed, each with the contract's description.
        docExpansion: 'none',
        ...(signIn && {
          initOAuth: {
            clientId: signIn.clientId,
            usePkceWithAuthorizationCodeGrant: true,
            scopes: ['openid'],
          },
        }),
      },
    },
  );
}
