import { Command } from 'commander';
import { Api, connect } from './client';
import { CredentialOptions, credentialsOf } from './credentials';
import { defaultFormat, Format, Outcome, render } from './output';

/** The options every command takes, before or after the command. */
export interface GlobalOptions extends CredentialOptions {
  url: string;
  cacert?: string;
  output?: Format;
  timeout: number;
}

/** What one command runs with: its connection, its output format, the terminal it runs in. */
export class Context {
  private client?: Api;

  constructor(readonly options: GlobalOptions) {}

  static of(command: Command): Context {
    return new Context(command.optsWithGlobals<GlobalOptions>());
  }

  get url(): string {
    return this.options.url;
  }

  get api(): Api {
    this.client ??= connect({
      url: this.options.url,
      credentials: credentialsOf(this.options),
      cacert: this.options.cacert,
      timeoutMs: this.options.timeout,
    });
    return this.client;
  }

  /** `-o` as given, else table on a terminal and json otherwise. */
  get format(): Format {
    return this.options.output ?? defaultFormat(Boolean(process.stdout.isTTY));
  }

  print(outcome: Outcome, format: Format = this.format): void {
    process.stdout.write(render(outcome, format));
  }
}
