#!/usr/bin/env node
import { CommanderError } from 'commander';
import { pc } from './colours';
import { CliError, Exit } from './exit-codes';
import { buildProgram } from './program';

/** Runs one command line and answers its exit code; failures are told on stderr. */
export async function run(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv, { from: 'user' });
    return Exit.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // commander has written its message already; help and --version are not failures.
      return error.exitCode === 0 ? Exit.ok : Exit.usage;
    }
    if (error instanceof CliError) {
      process.stderr.write(`${pc.red('error:')} ${error.message}\n`);
      for (const detail of error.details) process.stderr.write(`  ${detail}\n`);
      return error.exitCode;
    }
    throw error;
  }
}

if (require.main === module) {
  // Whoever reads the output has stopped (`tributary watch | head -1`, a jq that exited): that
  // ends the command quietly, as it ends any command-line tool, not with a stack trace.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(Exit.ok);
  });
  void run(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
