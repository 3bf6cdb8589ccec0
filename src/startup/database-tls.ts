import type { Target } from './database-wait';
import { StartupError } from './startup-error';

/** OpenSSL's verdicts on a certificate no authority this service trusts has signed. */
const UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'CERT_REJECTED',
  'INVALID_CA',
]);
const OUT_OF_DATE = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);
const WRONG_NAME = new Set(['ERR_TLS_CERT_ALTNAME_INVALID', 'HOSTNAME_MISMATCH']);

/** The query parameters of DATABASE_URL that name files the driver reads. */
const FILE_PARAMETERS = ['sslrootcert', 'sslcert', 'sslkey'];

const firstLine = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0];

/**
 * The failure of TLS to the database server as one line that says what to do, or undefined
 * when the error is not about TLS. None of these passes by waiting: they are never retried.
 */
export function tlsFailure(error: unknown, target: Target, url: string): StartupError | undefined {
  const { code = '', path, message = '' } = error as NodeJS.ErrnoException;
  if (path !== undefined) {
    const parameter = FILE_PARAMETERS.find((name) => new URL(url).searchParams.get(name) === path);
    if (parameter) {
      return new StartupError(
        `the file ${parameter}=${path} of DATABASE_URL cannot be read (${code}): fix the path, ` +
          'or let this user read the file',
      );
    }
  }
  const server = `the PostgreSQL server at ${target.where}`;
  if (UNTRUSTED.has(code)) {
    return new StartupError(
      `${server} presented a certificate that no authority this service trusts has signed ` +
        `(${code}): name the authority's certificate in DATABASE_URL with ` +
        'sslrootcert=/path/to/ca.pem (every sslmode but no-verify checks the certificate)',
    );
  }
  if (WRONG_NAME.has(code)) {
    return new StartupError(
      `the certificate of ${server} is not for that name (${code}: ${firstLine(error)}): ` +
        'connect by a name the certificate lists, or have it reissued for this one',
    );
  }
  if (OUT_OF_DATE.has(code)) {
    return new StartupError(
      `the certificate of ${server} is out of date (${code}): renew it on the server, or set ` +
        "this machine's clock right",
    );
  }
  if (message === 'The server does not support SSL connections') {
    return new StartupError(
      `${server} does not accept TLS connections: turn ssl on in its configuration, or remove ` +
        'sslmode from DATABASE_URL',
    );
  }
  if (code === '28000' && /no encryption/.test(message)) {
    return new StartupError(
      `${server} accepts only encrypted connections (${firstLine(error)}): add ` +
        'sslmode=verify-full&sslrootcert=/path/to/ca.pem to DATABASE_URL',
    );
  }
  return undefined;
}
