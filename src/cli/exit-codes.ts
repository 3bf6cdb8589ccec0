/** The exit codes of docs/extensions.md section 6. */
export const Exit = {
  ok: 0,
  usage: 1,
  notFound: 2,
  conflict: 3,
  auth: 4,
  invalid: 5,
  unavailable: 6,
} as const;

export type ExitCode = (typeof Exit)[keyof typeof Exit];

/** The exit code that tells a script what kind of failure an HTTP status is. */
export function exitCodeOf(status: number): ExitCode {
  if (status === 404) return Exit.notFound;
  if (status === 409 || status === 412) return Exit.conflict;
  if (status === 401 || status === 403) return Exit.auth;
  if (status === 429 || status >= 500) return Exit.unavailable;
  return Exit.invalid;
}

/** A failure the CLI reports on stderr, with the exit code that names its kind. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    readonly details: string[] = [],
    /** The problem document's code (`STREAM_NOT_FOUND`), when the service sent one. */
    readonly code?: string,
  ) {
    super(message);
  }
}

export const usageError = (message: string): CliError => new CliError(message, Exit.usage);

/** Why a request never got an answer, in a person's words. */
export function unreachable(url: string, error: unknown): CliError {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  // An https:// URL of a service that speaks HTTP: OpenSSL's own words name a record layer.
  const reason =
    cause?.code === 'ERR_SSL_WRONG_VERSION_NUMBER'
      ? 'it does not answer with TLS (does it speak http://?)'
      : (cause?.message ?? (error as Error).message).trim();
  return new CliError(
    `cannot reach ${url}: ${reason}${cause?.code ? ` (${cause.code})` : ''}`,
    Exit.unavailable,
  );
}
