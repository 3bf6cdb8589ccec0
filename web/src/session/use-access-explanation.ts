import { useEffect, useState } from 'preact/hooks';
import type { ApiError } from '../api/api-error';
import { explainRefusal } from '../api/access-words';
import { api, read } from '../api/client';

type ExplainedPermission = 'READ' | 'READ_UPDATE';

/**
 * For a 403 that names the permissions it found missing: what the caller's own access check
 * says about each (`GET /v1/auth/explain`), in words; undefined for other errors, and until the
 * service answers (a permission it cannot explain is left out).
 */
export function useAccessExplanation(error: ApiError | string | undefined): string | undefined {
  const [words, setWords] = useState<string>();
  useEffect(() => {
    setWords(undefined);
    const missing = typeof error === 'object' && error.status === 403 ? error.problem?.missing : [];
    if (!missing?.length) return;
    let current = true;
    void Promise.all(
      missing.map(async (permission) => {
        try {
          const query = {
            resource: permission.resource,
            permission: permission.permission as ExplainedPermission,
          };
          return explainRefusal(
            permission,
            await read(api.GET('/v1/auth/explain', { params: { query } })),
          );
        } catch {
          return undefined;
        }
      }),
    ).then((parts) => {
      if (current) setWords(parts.filter(Boolean).join(' ') || undefined);
    });
    return () => {
      current = false;
    };
  }, [error]);
  return words;
}
