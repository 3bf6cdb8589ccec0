import { createColors } from 'picocolors';

/**
 * Colour only for a person at a terminal. picocolors on its own also colours whenever `CI` is
 * set, which puts escape codes into every log and pipe of a CI job.
 */
export function colourWanted(env: NodeJS.ProcessEnv, isTty: boolean): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return isTty && env.TERM !== 'dumb';
}

export const pc = createColors(colourWanted(process.env, process.stdout.isTTY === true));
