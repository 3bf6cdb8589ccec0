import { LoggerService } from '@nestjs/common';
import type { Level, Logger } from 'pino';

/** A stack trace as Nest passes it to `error()`: text with `at file:line:column` lines. */
const isStack = (value: unknown): value is string =>
  typeof value === 'string' && /\n[ \t]+at .+:\d+:\d+/.test(value);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/**
 * Nest's calls as pino's: `(message, ...params, context)`, where `error` passes the stack
 * before the context. The context becomes a `context` field, a stack a `stack` field, an
 * `Error` an `err` field, plain objects their own fields, and anything else `params`.
 */
export function toLogEntry(
  message: unknown,
  optionalParams: unknown[],
  isError = false,
): [Record<string, unknown>, string | undefined] {
  const params = [...optionalParams];
  const fields: Record<string, unknown> = {};
  const last = params.at(-1);
  if (typeof last === 'string' && !isStack(last)) fields.context = params.pop();
  if (isError && params.length > 0 && (params[0] === undefined || isStack(params[0]))) {
    const stack = params.shift();
    if (stack !== undefined) fields.stack = stack;
  }
  const others = params.filter((param) => {
    if (param instanceof Error) fields.err = param;
    else if (isPlainObject(param)) Object.assign(fields, param);
    else return param !== undefined;
    return false;
  });
  if (others.length > 0) fields.params = others;

  if (message instanceof Error) return [{ ...fields, err: message }, message.message];
  if (isPlainObject(message)) return [{ ...message, ...fields }, undefined];
  return [fields, typeof message === 'string' ? message : String(message)];
}

/** Nest's account of wiring every module and route at boot: worth seeing only when debugging. */
const BOOT_CHATTER = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

/** Nest's logger interface over pino: every log of the framework and of our classes. */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...optionalParams: unknown[]): void {
    const context = optionalParams.at(-1);
    const chatter = typeof context === 'string' && BOOT_CHATTER.has(context);
    this.write(chatter ? 'debug' : 'info', message, optionalParams);
  }

  error(message: unknown, ...optionalParams: unknown[]): void {
    this.write('error', message, optionalParams);
  }

  warn(message: unknown, ...optionalParams: unknown[]): void {
    this.write('warn', message, optionalParams);
  }

  debug(message: unknown, ...optionalParams: unknown[]): void {
    this.write('debug', message, optionalParams);
  }

  verbose(message: unknown, ...optionalParams: unknown[]): void {
    this.write('trace', message, optionalParams);
  }

  fatal(message: unknown, ...optionalParams: unknown[]): void {
    this.write('fatal', message, optionalParams);
  }

  private write(level: Level, message: unknown, optionalParams: unknown[]): void {
    if (!this.logger.isLevelEnabled(level)) return;
    const [fields, text] = toLogEntry(message, optionalParams, level === 'error');
    this.logger[level](fields, text);
  }
}
