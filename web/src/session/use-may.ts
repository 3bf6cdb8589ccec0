import { useEffect, useState } from 'preact/hooks';
import { api, read } from '../api/client';
import { useStore } from '../state/use-store';
import { session } from './session';

/**
 * Whether the caller has `permission` on `resource`, as the service's own access check answers
 * (`GET /v1/auth/explain`): with authentication off everyone may; false until it answers and when
 * it cannot. For showing a control only to whoever may use it: the service decides regardless.
 */
export function useMay(resource: string, permission: 'READ' | 'READ_UPDATE'): boolean {
  const state = useStore(session.state);
  const [allowed, setAllowed] = useState(false);
  const principal = state.kind === 'signed-in' ? state.user.principal : undefined;
  useEffect(() => {
    setAllowed(false);
    if (principal === undefined) return;
    const controller = new AbortController();
    read(
      api.GET('/v1/auth/explain', {
        params: { query: { resource, permission } },
        signal: controller.signal,
      }),
    ).then(
      (explanation) => setAllowed(explanation.allowed),
      () => undefined,
    );
    return () => controller.abort();
  }, [principal, resource, permission]);
  return state.kind === 'open' || (principal !== undefined && allowed);
}
