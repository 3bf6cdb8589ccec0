import createClient from 'openapi-fetch';
import { session } from '../session/session';
import { ApiError } from './api-error';
import type { ProblemFacts } from './problem-words';
import type { paths } from './types';

/**
 * The public API, typed from its OpenAPI document, as any client calls it. `credentials: omit`:
 * the console sends its own `Authorization` header (Basic, from memory) and no cookies; it also
 * keeps the browser from opening its own sign-in prompt on a 401.
 */
export const api = createClient<paths>({ baseUrl: '', credentials: 'omit' });

api.use({
  onRequest({ request }) {
    // The contract's 404, 409 and 412 have empty bodies unless a problem document is asked for.
    request.headers.set('Accept', 'application/problem+json, application/json');
    const authorization = session.authorization();
    if (authorization) request.headers.set('Authorization', authorization);
    return request;
  },
  onResponse({ response }) {
    if (response.status === 401) session.expire();
    return undefined;
  },
});

interface Answered<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The seconds a 503 or 429 asks to wait (`Retry-After` in seconds; a date is not used). */
export function retryAfter(response: Response): number | undefined {
  const seconds = Number(response.headers.get('Retry-After'));
  return Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}

/**
 * What a call answered: its body and response when it succeeded, else an {@link ApiError}
 * that says why in words.
 */
export async function answer<T>(
  call: Promise<Answered<T>>,
): Promise<{ data: T; response: Response }> {
  let answered: Answered<T>;
  try {
    answered = await call;
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw ApiError.unreachable();
  }
  const { data, error, response } = answered;
  if (!response.ok) {
    const problem =
      typeof error === 'object' && error !== null ? (error as ProblemFacts) : undefined;
    throw new ApiError(response.status, problem, retryAfter(response));
  }
  return { data: data as T, response };
}

/** The body of a successful call (see {@link answer}). */
export async function read<T>(call: Promise<Answered<T>>): Promise<T> {
  return (await answer(call)).data;
}
