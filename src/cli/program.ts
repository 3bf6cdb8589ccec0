import { Command, Option } from 'commander';
import { positiveInteger } from './arguments';
import { applyCommand } from './commands/apply';
import { explainCommand, whoamiCommand } from './commands/auth';
import { exportCommand } from './commands/export';
import { readerGroupsCommand, readersCommand } from './commands/reader-groups';
import { scopesCommand } from './commands/scopes';
import { auditCommand, healthCommand } from './commands/service';
import { streamsCommand } from './commands/streams';
import { watchCommand } from './commands/watch';
import { FORMATS } from './output';

export const DEFAULT_URL = 'http://localhost:9091';

/** Options every command takes, before or after it; each has its environment variable. */
function globalOptions(program: Command): Command {
  return program
    .addOption(new Option('--url <url>', 'the service').env('TRIBUTARY_URL').default(DEFAULT_URL))
    .addOption(new Option('--user <name>', 'HTTP Basic user').env('TRIBUTARY_USER'))
    .addOption(new Option('--password <password>', 'HTTP Basic password').env('TRIBUTARY_PASSWORD'))
    .addOption(new Option('--token <jwt>', 'a bearer token').env('TRIBUTARY_TOKEN'))
    .addOption(
      new Option('--issuer <url>', 'OpenID Connect provider to get a token from').env(
        'TRIBUTARY_ISSUER',
      ),
    )
    .addOption(
      new Option('--client-id <id>', 'client of the provider (client credentials)').env(
        'TRIBUTARY_CLIENT_ID',
      ),
    )
    .addOption(
      new Option('--client-secret <secret>', "that client's secret").env('TRIBUTARY_CLIENT_SECRET'),
    )
    .addOption(
      new Option(
        '--token-scope <scopes>',
        'OAuth scopes to ask the provider for, if it needs any',
      ).env('TRIBUTARY_TOKEN_SCOPE'),
    )
    .addOption(new Option('--cacert <file>', 'PEM certificate authorities to trust for HTTPS'))
    .addOption(
      new Option(
        '-o, --output <format>',
        'output format (default: table on a terminal, else json)',
      ).choices(FORMATS),
    )
    .addOption(
      new Option('--timeout <ms>', 'give up on a silent service after this long')
        .argParser(positiveInteger)
        .default(30_000),
    );
}

/** Adds `command` and its subcommands with the program's error handling. */
function adopt(program: Command, command: Command): void {
  const inherit = (c: Command): void => {
    c.copyInheritedSettings(program);
    c.commands.forEach(inherit);
  };
  inherit(command);
  program.addCommand(command);
}

/** The `tributary` command line (docs/extensions.md section 6). */
export function buildProgram(): Command {
  const program = globalOptions(new Command('tributary'))
    .description('Command-line client of Tributary and of any controller speaking the /v1 contract')
    .exitOverride()
    // `tributary <command> --help` lists the options (docs/cli.md), and the
    // options every command takes (-o, --url, credentials) are among them.
    .configureHelp({ showGlobalOptions: true })
    .showHelpAfterError('(add --help for usage)');
  for (const command of [
    scopesCommand(),
    streamsCommand(),
    readerGroupsCommand(),
    readersCommand(),
    healthCommand(),
    auditCommand(),
    whoamiCommand(),
    explainCommand(),
    applyCommand(),
    exportCommand(),
    watchCommand(),
  ]) {
    adopt(program, command);
  }
  return program;
}
