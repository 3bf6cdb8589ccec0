import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api/api-error';
import { UNREACHABLE } from '../api/problem-words';
import type { Follows } from '../live/follows';
import { useFollow } from '../live/use-follow';
import { startWaiting, stopWaiting } from './outage';

export interface Resource<T> {
  /** The last value read (kept while it is read again). */
  data?: T;
  /** Why it could not be read (not for an outage, which is retried). */
  error?: ApiError;
  loading: boolean;
  /** Reads it again (after a change, or when the change feed says it changed). */
  reload: () => void;
}

/** How long to wait before reading again after an outage, when the service does not say. */
const RETRY_SECONDS = 2;

const retried = (error: unknown): error is ApiError =>
  error instanceof ApiError && (error.status === 503 || error.status === UNREACHABLE);

/**
 * Reads something from the API whenever `key` changes (the screen's names, filters, page; what
 * was read for another key is not shown) or `version` does (a change made here: what was read is
 * shown until it is read again). The reads of an earlier key or version are abandoned. While the
 * service cannot reach its database (503) or cannot be reached at all, the read is tried again
 * until it succeeds, and the page says so. With `follows`, it is read again when the change feed
 * tells of a change it takes (made elsewhere: another tab, the CLI, another instance).
 */
export function useResource<T>(
  load: (signal: AbortSignal) => Promise<T>,
  key: string,
  version = 0,
  follows?: Follows,
): Resource<T> {
  const [state, setState] = useState<{ key: string; data?: T; error?: ApiError }>({ key });
  const [loading, setLoading] = useState(true);
  const [round, setRound] = useState(0);
  const loader = useRef(load);
  loader.current = load;
  const reader = useRef(Symbol('reader'));

  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const attempt = () => {
      setLoading(true);
      loader.current(controller.signal).then(
        (data) => {
          if (controller.signal.aborted) return;
          stopWaiting(reader.current);
          setState({ key, data });
          setLoading(false);
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          if (retried(error)) {
            startWaiting(reader.current, error.status === UNREACHABLE);
            timer = setTimeout(attempt, (error.retryAfter ?? RETRY_SECONDS) * 1000);
            return;
          }
          stopWaiting(reader.current);
          setState((previous) => ({
            key,
            data: previous.key === key ? previous.data : undefined,
            error: ApiError.of(error),
          }));
          setLoading(false);
        },
      );
    };
    attempt();
    return () => {
      controller.abort();
      clearTimeout(timer);
      stopWaiting(reader.current);
    };
  }, [key, version, round]);

  const reload = useCallback(() => setRound((n) => n + 1), []);
  useFollow(follows, reload);
  const current = state.key === key;
  return {
    data: current ? state.data : undefined,
    error: current ? state.error : undefined,
    loading: loading || !current,
    reload,
  };
}
