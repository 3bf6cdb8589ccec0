import { createStore } from './store';

/**
 * The reads waiting for the service to answer again (503: it cannot reach its database; or no
 * answer at all). While any waits, the page says so once, at the top.
 */
export const outage = createStore<{ waiting: number; unreachable: boolean }>({
  waiting: 0,
  unreachable: false,
});

const waiting = new Map<symbol, boolean>();

function publish(): void {
  outage.set({
    waiting: waiting.size,
    unreachable: [...waiting.values()].some((unreachable) => unreachable),
  });
}

export function startWaiting(reader: symbol, unreachable: boolean): void {
  waiting.set(reader, unreachable);
  publish();
}

export function stopWaiting(reader: symbol): void {
  if (waiting.delete(reader)) publish();
}
