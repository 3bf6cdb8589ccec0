import { Command } from 'commander';
import { Context } from '../context';
import type { Outcome } from '../output';

export type Handler = (
  context: Context,
  args: string[],
  options: Record<string, unknown>,
) => Promise<Outcome | void>;

/** A commander action that runs `handler` with the command's context and prints its outcome. */
export function action(handler: Handler): (...received: unknown[]) => Promise<void> {
  return async (...received) => {
    const command = received[received.length - 1] as Command;
    const context = Context.of(command);
    const outcome = await handler(context, command.processedArgs as string[], command.opts());
    if (outcome) context.print(outcome);
  };
}
