import { tracingRequested } from './tracing-settings';

/** What shuts the SDK down: its spans still batched are sent first. */
interface RunningTracing {
  shutdown(): Promise<void>;
}

let running: RunningTracing | undefined;

/**
 * Starts sending traces when the environment asks for them (`tracingRequested`); else does
 * nothing at all, and the SDK's packages stay unloaded. Must run before `http`, `express` and
 * `pg` are first required: `register.ts`, the first import of `main.ts`.
 */
export function startTracing(env: NodeJS.ProcessEnv): boolean {
  if (running || !tracingRequested(env)) return running !== undefined;
  // Required here, not imported: loading the SDK is the cost that traces turned off never pay.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { startOpenTelemetry } = require('./open-telemetry') as typeof import('./open-telemetry');
  running = startOpenTelemetry(env);
  return true;
}

/** Whether this process sends traces. */
export const tracingStarted = (): boolean => running !== undefined;

/**
 * Sends the spans still batched and stops, waiting at most `timeoutMs` (an unreachable
 * collector must not hold the shutdown). Nothing to do when traces are off.
 */
export async function stopTracing(timeoutMs: number): Promise<void> {
  const stopping = running;
  running = undefined;
  if (!stopping) return;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
  try {
    await Promise.race([stopping.shutdown().catch(() => undefined), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
