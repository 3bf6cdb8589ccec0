import { useEffect, useRef } from 'preact/hooks';
import { changeFeed } from './change-feed';
import type { Follows } from './follows';

/**
 * Changes close together (an apply, a burst of writes) are read once: the first one starts this
 * wait, and the read follows it; well within the 2 s in which a change must show.
 */
export const COALESCE_MS = 250;

/** Calls `reload` when the change feed tells of an event `follows` takes, or to list again. */
export function useFollow(follows: Follows | undefined, reload: () => void): void {
  const current = useRef({ follows, reload });
  current.current = { follows, reload };
  const enabled = follows !== undefined;
  useEffect(() => {
    if (!enabled) return undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unsubscribe = changeFeed.subscribe((news) => {
      const { follows: matches } = current.current;
      if (news.kind === 'event' && !matches?.(news.event)) return;
      timer ??= setTimeout(() => {
        timer = undefined;
        current.current.reload();
      }, COALESCE_MS);
    });
    return () => {
      unsubscribe();
      clearTimeout(timer);
    };
  }, [enabled]);
}
