import { answer, api, read } from '../api/client';
import type { ScopeCompliance, ScopePolicy } from '../api/types';
import { hasPolicy } from './policy-words';

/** A scope's policy (`{}` when it has none) and the entity tag a change of it sends back. */
export interface TaggedPolicy {
  policy: ScopePolicy;
  etag?: string;
}

/** `GET /v1/scopes/{s}/policy`, with its `ETag`. */
export async function loadPolicy(scope: string, signal?: AbortSignal): Promise<TaggedPolicy> {
  const { data, response } = await answer(
    api.GET('/v1/scopes/{scopeName}/policy', { params: { path: { scopeName: scope } }, signal }),
  );
  return { policy: data, etag: response.headers.get('ETag') ?? undefined };
}

/**
 * How the scope stands now against its policy (`GET .../policy/compliance`): undefined for a
 * scope without a policy, which has nothing to stand against.
 */
export async function loadCompliance(
  scope: string,
  policy: ScopePolicy | undefined,
  signal?: AbortSignal,
): Promise<ScopeCompliance | undefined> {
  if (!hasPolicy(policy)) return undefined;
  return read(
    api.GET('/v1/scopes/{scopeName}/policy/compliance', {
      params: { path: { scopeName: scope } },
      signal,
    }),
  );
}
