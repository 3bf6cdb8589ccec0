import { Logger } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import type { Request, RequestHandler, Response } from 'express';
import { OidcIssuer } from '../auth/oidc/oidc-issuer.service';
import { AppConfig } from '../config/app-config';
import { MalformedConditionError, notModified, parseCondition } from '../conditional/entity-tag';
import { signInOptions } from '../openapi/openapi-document';
import { chooseEncoding, StoredEncoding } from './content-encoding';
import {
  CONSOLE_PATH,
  ConsoleFile,
  consoleFolder,
  fileFor,
  loadConsoleFiles,
  withPageMeta,
} from './console-files';

/** The names of the page's `<meta>` elements that tell it where to sign in (web/src/session). */
export const SIGN_IN_META = {
  issuer: 'tributary-oidc-issuer',
  clientId: 'tributary-oidc-client-id',
} as const;

/**
 * The console's own policy: scripts and styles from its files only (no inline script, no
 * `eval`), and the API of this origin as the only place it talks to, besides, when it signs in
 * at an OpenID Connect provider, the provider's origins (its discovery document and its token
 * endpoint, which the page fetches). Going to the provider's sign-in page and back is a
 * navigation of the whole page, which no directive governs.
 */
export function consoleContentSecurityPolicy(providerOrigins: readonly string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    ["connect-src 'self'", ...providerOrigins].join(' '),
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const CONSOLE_CONTENT_SECURITY_POLICY = consoleContentSecurityPolicy();

/**
 * Whether `If-None-Match` names the tag the file is sent with (or is `*`): the client's copy is
 * current. A malformed header names no copy the client holds, so the file is sent whole (the
 * API's routes answer 400 instead: there a condition guards what a client meant to protect).
 */
function alreadyHeld(ifNoneMatch: string | undefined, etag: string): boolean {
  try {
    return notModified(parseCondition(ifNoneMatch), etag);
  } catch (error) {
    if (error instanceof MalformedConditionError) return false;
    throw error;
  }
}

function send(req: Request, res: Response, file: ConsoleFile, policy: string): void {
  const encoding = chooseEncoding(
    req.headers['accept-encoding'],
    Object.keys(file.encoded) as StoredEncoding[],
  );
  const body = encoding ? file.encoded[encoding]! : file.bytes;
  // Each representation its own tag (RFC 9110 section 8.8.3): gzip bytes are not brotli bytes.
  const etag = encoding ? `${file.etag.slice(0, -1)}-${encoding}"` : file.etag;
  res.setHeader('Content-Security-Policy', policy);
  res.setHeader('Cache-Control', file.cacheControl);
  res.setHeader('Vary', 'Accept-Encoding');
  res.setHeader('ETag', etag);
  if (alreadyHeld(req.headers['if-none-match'], etag)) {
    res.status(304).end();
    return;
  }
  res.setHeader('Content-Type', file.mediaType);
  if (encoding) res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', String(body.length));
  res.status(200).end(req.method === 'HEAD' ? undefined : body);
}

/**
 * Answers GET and HEAD below `/console` from the built files: a file by its name, and the page
 * for every other path, so a deep link (`/console/scopes/sales/streams/orders`) survives a
 * reload. Other methods go on to the API's routes (a 404 there). The page reads everything it
 * shows from the public API, with the caller's own credentials: nothing here bypasses its checks.
 */
export function consoleHandler(
  files: Map<string, ConsoleFile>,
  policy: () => string = () => CONSOLE_CONTENT_SECURITY_POLICY,
): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const file = fileFor(files, req.path);
    if (!file) {
      res.setHeader('Cache-Control', 'no-cache');
      res.status(404).type('text/plain').end('Not found');
      return;
    }
    send(req, res, file, policy());
  };
}

/**
 * Serves the console under `/console` when CONSOLE_ENABLED (the default), from what the project's
 * build wrote into dist/console; without it the path does not exist. With AUTH_OIDC_UI_CLIENT_ID
 * the page is told the issuer and that public client's id, to offer signing in there
 * (docs/extensions.md section 9), and may fetch from the provider's origins.
 */
export function serveConsole(app: NestExpressApplication, config: AppConfig): void {
  if (!config.CONSOLE_ENABLED) return;
  const folder = consoleFolder();
  const files = loadConsoleFiles(folder);
  if (!files) {
    new Logger('Console').warn(
      `the console is not built (no ${folder}): \`npm run build\` builds it; /console is not served`,
    );
    return;
  }
  const signIn = signInOptions(config);
  if (!signIn) {
    app.use(CONSOLE_PATH, consoleHandler(files));
    return;
  }
  const issuer = app.get(OidcIssuer);
  const page = withPageMeta(files, {
    [SIGN_IN_META.issuer]: signIn.issuer,
    [SIGN_IN_META.clientId]: signIn.clientId,
  });
  app.use(
    CONSOLE_PATH,
    consoleHandler(page, () => consoleContentSecurityPolicy(issuer.browserOrigins())),
  );
}
