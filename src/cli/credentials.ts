import { usageError } from './exit-codes';

/** A client of the provider that gets its own access tokens (the client-credentials grant). */
export interface ClientCredentials {
  issuer: string;
  clientId: string;
  clientSecret: string;
  scope?: string;
}

/** How the CLI proves who it is: HTTP Basic, a bearer token, a client of the provider, or not. */
export type Credentials =
  | { kind: 'none' }
  | { kind: 'basic'; user: string; password: string }
  | { kind: 'token'; token: string }
  | ({ kind: 'client' } & ClientCredentials);

export interface CredentialOptions {
  user?: string;
  password?: string;
  token?: string;
  issuer?: string;
  clientId?: string;
  clientSecret?: string;
  /** OAuth scopes of the token (`--token-scope`; `--scope` is the CLI's scope of streams). */
  tokenScope?: string;
}

/**
 * The one kind of credentials the options (or their environment variables) give; two kinds at
 * once, or a client without its issuer or secret, is a usage error (docs/extensions.md section 9).
 */
export function credentialsOf(options: CredentialOptions): Credentials {
  const { user, password, token, issuer, clientId, clientSecret, tokenScope } = options;
  const client = issuer !== undefined || clientId !== undefined || clientSecret !== undefined;
  const kinds = [
    user !== undefined && '--user',
    token !== undefined && '--token',
    client && '--client-id',
  ].filter(Boolean);
  if (kinds.length > 1) throw usageError(`give one of ${kinds.join(', ')}, not several`);
  if (client) {
    if (issuer === undefined || clientId === undefined || clientSecret === undefined) {
      throw usageError('--issuer, --client-id and --client-secret go together');
    }
    return {
      kind: 'client',
      issuer,
      clientId,
      clientSecret,
      ...(tokenScope && { scope: tokenScope }),
    };
  }
  if (token !== undefined) return { kind: 'token', token };
  if (user !== undefined) return { kind: 'basic', user, password: password ?? '' };
  // A password alone would be dropped, and the request sent as anonymous.
  if (password !== undefined) throw usageError('--password goes with --user');
  return { kind: 'none' };
}
