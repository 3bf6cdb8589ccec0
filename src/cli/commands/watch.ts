import { Command } from 'commander';
import { setTimeout as sleep } from 'node:timers/promises';
import { call } from '../client';
import type { Context } from '../context';
import { action } from './action';
import { POSITION_RULE } from '../../events/feed-position';
import { CliError, Exit, usageError } from '../exit-codes';
import type { components } from '../generated/api';

type ChangeEvent = components['schemas']['ChangeEvent'];
/** The JSON answer (the route also streams `text/event-stream`, which this does not ask for). */
type EventsPage = components['schemas']['ChangeEventsPage'];

/** The longest a request waits for the first event, in seconds (the API allows 60). */
const MAX_WAIT_S = 30;
/** The longest pause between two attempts while the service cannot be reached. */
const MAX_BACKOFF_MS = 10_000;
/** The pause after an empty answer when `--timeout` leaves no room for a long poll to wait. */
const POLL_MS = 1000;

/** One line of an event: JSON Lines with `-o json`, else its id, time, operation, resource, principal. */
export function eventLine(event: ChangeEvent, json: boolean): string {
  if (json) return JSON.stringify(event);
  return [
    event.id,
    new Date(event.time).toISOString(),
    event.operation,
    event.resource,
    event.principal,
  ].join('  ');
}

/**
 * Follows the change feed (docs/extensions.md section 8) by long polls: each answer's position
 * is where the next request starts, so after a lost connection (the service restarting, another
 * instance behind the same address) it goes on from the last event printed, repeating none and
 * losing none. Runs until interrupted (exit 0); a refusal (400, 401, 403, 410) ends it with
 * its exit code. `-o yaml` prints JSON Lines too: YAML has no one-line form.
 */
export function watchCommand(): Command {
  return new Command('watch')
    .description('follow every change, one line per event (JSON Lines with -o json)')
    .option('--scope <scope>', "only this scope's events")
    .option('--since <id>', 'start after this event id (default: from now)')
    .action(
      action(async (ctx, _args, options) => {
        await watch(ctx, options);
      }),
    );
}

async function watch(ctx: Context, options: Record<string, unknown>): Promise<void> {
  const since = options.since as string | undefined;
  if (since !== undefined && !/^\d{1,19}$/.test(since)) {
    throw usageError(`--since must be ${POSITION_RULE}`);
  }
  const json = ctx.format !== 'table';
  const wait = Math.max(0, Math.min(MAX_WAIT_S, Math.floor(ctx.options.timeout / 1000) - 5));
  const scope = options.scope as string | undefined;
  let position = since;
  let backoff = 0;
  // Interrupted, it is done: every event it received is printed already.
  const stop = () => process.exit(Exit.ok);
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  for (;;) {
    try {
      if (position === undefined) {
        const { data } = await call(
          ctx.url,
          ctx.api.GET('/v1/events', { params: { query: { scope } } }),
        );
        position = (data as EventsPage).position;
      }
      const query = { since: position, scope, limit: 1000, wait };
      const answer = await call(ctx.url, ctx.api.GET('/v1/events', { params: { query } }));
      const data = answer.data as EventsPage;
      if (data.events.length > 0) {
        process.stdout.write(data.events.map((e) => `${eventLine(e, json)}\n`).join(''));
      }
      position = data.position;
      backoff = 0;
      // A --timeout under 6 s leaves the long poll no time to wait: the service answers at
      // once, and without a pause this would ask it hundreds of times a second.
      if (wait === 0 && data.events.length === 0) await sleep(POLL_MS);
    } catch (error) {
      if (!(error instanceof CliError) || error.exitCode !== Exit.unavailable) throw error;
      // The service is away: try again from the same position.
      backoff = Math.min(MAX_BACKOFF_MS, Math.max(250, backoff * 2));
      process.stderr.write(`${error.message}; trying again in ${backoff} ms\n`);
      await sleep(backoff);
    }
  }
}
