import { readFileSync } from 'node:fs';
import createClient, { Client } from 'openapi-fetch';
import { Agent, fetch as undiciFetch, Request as UndiciRequest } from 'undici';
import type { components, paths } from './generated/api';
import { clientToken } from './client-token';
import type { Credentials } from './credentials';
import { CliError, exitCodeOf, unreachable, usageError } from './exit-codes';
import { violationLine } from './plan-diff';

export type ApiPaths = paths;
export type Api = Client<ApiPaths>;
type Problem = components['schemas']['Problem'];

/** Where the service is and who asks. */
export interface Connection {
  url: string;
  credentials: Credentials;
  /** A PEM file of the certificate authorities to trust for HTTPS. */
  cacert?: string;
  timeoutMs: number;
}

function readCa(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    throw usageError(`cannot read --cacert ${file}: ${(error as Error).message}`);
  }
}

/**
 * The base of the API's paths from `--url`: the service's address, as docs/extensions.md section
 * 6 has it (`http://localhost:9091`). Without a scheme (`localhost:9091`) it is a usage error, not
 * an unreachable service; the API's own address, the `/v1` the service's ready line names, means
 * the service (every path starts with `/v1` already: `/v1/v1/scopes` would be a 404).
 */
export function serviceBase(url: string): string {
  let base: URL;
  try {
    base = new URL(url);
  } catch {
    throw usageError(`--url ${url} is not a URL: give one like ${EXAMPLE_URL}`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw usageError(
      `--url ${url} is not an http:// or https:// URL: give one like ${EXAMPLE_URL}`,
    );
  }
  return base.toString().replace(/\/+$/, '').replace(/\/v1$/, '');
}

const EXAMPLE_URL = 'http://localhost:9091';

/** A client typed from the committed OpenAPI document; undici carries the TLS trust and timeouts. */
export function connect(connection: Connection): Api {
  const base = serviceBase(connection.url);
  const dispatcher = new Agent({
    connect: {
      timeout: connection.timeoutMs,
      ...(connection.cacert ? { ca: readCa(connection.cacert) } : {}),
    },
    headersTimeout: connection.timeoutMs,
    bodyTimeout: connection.timeoutMs,
  });
  const headers: Record<string, string> = {
    // Problem documents carry the messages; without asking, some errors have an empty body.
    Accept: 'application/problem+json, application/json',
  };
  const { credentials } = connection;
  if (credentials.kind === 'basic') {
    const pair = `${credentials.user}:${credentials.password}`;
    headers.Authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
  }
  if (credentials.kind === 'token') headers.Authorization = `Bearer ${credentials.token}`;
  const client = createClient<ApiPaths>({
    baseUrl: base,
    headers,
    Request: UndiciRequest as unknown as typeof Request,
    fetch: (request) =>
      undiciFetch(request as unknown as UndiciRequest, {
        dispatcher,
      }),
  });
  if (credentials.kind === 'client') {
    // One token for the whole command, asked for before its first request.
    let token: Promise<string> | undefined;
    const fetchToken = (url: string, init?: RequestInit) =>
      undiciFetch(url, { ...(init as object), dispatcher }) as unknown as Promise<Response>;
    client.use({
      onRequest: async ({ request }) => {
        token ??= clientToken(credentials, fetchToken);
        request.headers.set('Authorization', `Bearer ${await token}`);
        return request;
      },
    });
  }
  return client;
}

function problemOf(error: unknown): Partial<Problem> {
  return typeof error === 'object' && error !== null ? error : {};
}

/** A failed answer as a CliError: the problem document's words, the status's exit code. */
export function answerError(response: Response, error: unknown): CliError {
  const problem = problemOf(error);
  let message =
    problem.detail ??
    (typeof error === 'string' && error.trim() ? error.trim() : undefined) ??
    `${response.status} ${response.statusText}`.trim();
  let details = (problem.errors ?? []).map((e) => `${e.field}: ${e.message}`);
  // A 400's detail is often its invalid fields joined: say each once, not the line and the list.
  if (details.length > 0 && details.join('; ') === message) {
    if (details.length === 1) details = [];
    else message = problem.title ?? `${response.status} ${response.statusText}`.trim();
  }
  const conflicts = (error as { conflicts?: { resource: string; message?: string }[] })?.conflicts;
  for (const c of Array.isArray(conflicts) ? conflicts : []) {
    details.push(c.message ? `${c.resource}: ${c.message}` : c.resource);
  }
  // A policy's refusal: each rule broken, and of which resource when an apply changes several.
  for (const v of problem.violations ?? []) details.push(violationLine(v));
  return new CliError(message, exitCodeOf(response.status), details, problem.code);
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * Awaits one request of the typed client: the body on success (2xx), otherwise a CliError with
 * the exit code of the status, or of an unreachable service.
 */
export async function call<T>(
  url: string,
  request: Promise<Answer<T>>,
): Promise<{ data: T; response: Response }> {
  let answer: Answer<T>;
  try {
    answer = await request;
  } catch (error) {
    // What a request's own preparation refused (a token the provider would not give) says so.
    if (error instanceof CliError) throw error;
    throw unreachable(url, error);
  }
  if (!answer.response.ok) throw answerError(answer.response, answer.error);
  return { data: answer.data as T, response: answer.response };
}
