import { answer, api } from '../api/client';
import type { ScopePolicy } from '../api/types';

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
