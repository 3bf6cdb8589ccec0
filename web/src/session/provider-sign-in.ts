/**
 * Signing in at the OpenID Connect provider: the authorization-code flow with PKCE (RFC 7636) for
 * a public client, with panva's `oauth4webapi` for every step (discovery, the verifier and its
 * challenge, the checks of the answer and of the token response). Loaded only when someone
 * signs in there, so the first load stays small.
 *
 * The whole page goes to the provider and comes back to {@link SIGN_IN_CALLBACK_PATH}: what the
 * flow needs across that trip (the `state`, the code verifier and the screen to return to) waits
 * in the tab's `sessionStorage` and is removed when the page comes back, whatever happened. The
 * access token itself never leaves the page's memory (see session.ts).
 */
import * as oauth from 'oauth4webapi';
import { CONSOLE_ROOT } from '../routing/routes';
import { ProviderSettings, SIGN_IN_CALLBACK_PATH } from './provider-settings';

/** The `sessionStorage` key of a sign-in under way. */
const PENDING_KEY = 'tributary.sign-in';

interface Pending {
  state: string;
  codeVerifier: string;
  /** The console's address (path and query) when signing in began. */
  returnTo: string;
}

/** Signing in at the provider failed; `returnTo` is the screen the user was on. */
export class ProviderSignInError extends Error {
  constructor(
    message: string,
    readonly returnTo: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'ProviderSignInError';
  }
}

/** The redirect URI registered for the client: the callback on the console's own origin. */
export const redirectUri = (): string =>
  new URL(SIGN_IN_CALLBACK_PATH, window.location.origin).href;

/**
 * An `http:` issuer is the operator's choice (the service accepts it too, e.g. a provider on the
 * same host); `oauth4webapi` refuses plain HTTP unless told.
 */
const requestOptions = (issuer: URL) =>
  issuer.protocol === 'http:' ? { [oauth.allowInsecureRequests]: true } : {};

/** The provider's endpoints, from its discovery document (its `issuer` checked). */
async function discover(settings: ProviderSettings): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(settings.issuer);
  try {
    return await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...requestOptions(issuer) }),
    );
  } catch (error) {
    throw new Error(`The provider ${settings.issuer} cannot be reached: ${reasonOf(error)}`, {
      cause: error,
    });
  }
}

function reasonOf(error: unknown): string {
  if (
    error instanceof oauth.AuthorizationResponseError ||
    error instanceof oauth.ResponseBodyError
  ) {
    return error.error_description ? `${error.error} (${error.error_description})` : error.error;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * Sends the page to the provider's sign-in, to come back to the callback and then to
 * `returnTo`. Only returns when it cannot (the provider's discovery failed).
 */
export async function beginProviderSignIn(
  settings: ProviderSettings,
  returnTo: string,
): Promise<void> {
  const as = await discover(settings);
  if (!as.authorization_endpoint) {
    throw new Error(`The provider ${settings.issuer} names no authorization endpoint.`);
  }
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint);
  url.searchParams.set('client_id', settings.clientId);
  url.searchParams.set('redirect_uri', redirectUri());
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', 'openid');
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(codeVerifier));
  url.searchParams.set('code_challenge_method', 'S256');
  url.searchParams.set('state', state);
  const pending: Pending = { state, codeVerifier, returnTo };
  window.sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
  window.location.assign(url.href);
}

/**
 * Where one signs out at the provider too (OpenID Connect RP-Initiated Logout), when its
 * discovery names an end-session endpoint: the provider's own page, which asks first.
 */
function endSessionUrl(
  as: oauth.AuthorizationServer,
  settings: ProviderSettings,
): string | undefined {
  if (!as.end_session_endpoint) return undefined;
  const url = new URL(as.end_session_endpoint);
  url.searchParams.set('client_id', settings.clientId);
  return url.href;
}

/** What the provider's answer to a sign-in left in the tab, and forgets it. */
function takePending(): Pending | undefined {
  const stored = window.sessionStorage.getItem(PENDING_KEY);
  window.sessionStorage.removeItem(PENDING_KEY);
  if (!stored) return undefined;
  try {
    const pending = JSON.parse(stored) as Partial<Pending>;
    const { state, codeVerifier, returnTo } = pending;
    if (typeof state !== 'string' || typeof codeVerifier !== 'string') return undefined;
    const safe = typeof returnTo === 'string' && returnTo.startsWith(`${CONSOLE_ROOT}`);
    return { state, codeVerifier, returnTo: safe ? returnTo : CONSOLE_ROOT };
  } catch {
    return undefined;
  }
}

/**
 * The provider sent the page back to the callback (`callback` is its address): checks its
 * answer against the sign-in this tab began and exchanges the code, with the verifier, for the
 * access token.
 */
export async function finishProviderSignIn(
  settings: ProviderSettings,
  callback: URL,
): Promise<{ accessToken: string; returnTo: string; endSession?: string }> {
  const pending = takePending();
  if (!pending) {
    throw new ProviderSignInError(
      'This sign-in was not begun in this tab (or was already finished): sign in again.',
      CONSOLE_ROOT,
    );
  }
  try {
    const as = await discover(settings);
    const client: oauth.Client = { client_id: settings.clientId };
    const issuer = new URL(settings.issuer);
    const parameters = oauth.validateAuthResponse(as, client, callback, pending.state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      parameters,
      redirectUri(),
      pending.codeVerifier,
      requestOptions(issuer),
    );
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
    return {
      accessToken: tokens.access_token,
      returnTo: pending.returnTo,
      endSession: endSessionUrl(as, settings),
    };
  } catch (error) {
    throw new ProviderSignInError(
      `Signing in at ${settings.issuer} failed: ${reasonOf(error)}`,
      pending.returnTo,
      { cause: error },
    );
  }
}
