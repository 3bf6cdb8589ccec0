import { ApiError } from '../api/api-error';
import { answer, api } from '../api/client';
import type { Identity } from '../api/types';
import { navigate } from '../routing/router';
import { CONSOLE_ROOT } from '../routing/routes';
import type { ProviderSettings } from './provider-settings';
import { session } from './session';

/**
 * Who the service takes the current credentials (or none) for: `GET /v1/auth/whoami`, which
 * every caller may ask and which reads nothing from the database. Undefined on a 401, whose
 * challenges (`WWW-Authenticate`) come with it.
 */
async function whoami(): Promise<
  { identity: Identity } | { identity?: undefined; challenges: string | null; refusal: ApiError }
> {
  const call = api.GET('/v1/auth/whoami');
  try {
    return { identity: (await answer(call)).data };
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 401) throw error;
    const challenges = (await call).response.headers.get('WWW-Authenticate');
    return { challenges, refusal: error };
  }
}

const userOf = ({ principal, method, groups }: Identity) => ({ principal, method, groups });

/** At start: is authentication on? Then someone must sign in. */
export async function checkSession(): Promise<void> {
  const answered = await whoami();
  if (!answered.identity) session.signInNeeded(answered.challenges);
  else if (answered.identity.method === 'anonymous') session.open();
  else session.signedIn(userOf(answered.identity));
}

/** Signs in with Basic credentials; false when the service refuses them. */
export async function signIn(user: string, password: string): Promise<boolean> {
  session.useCredentials(user, password);
  const { identity } = await whoami();
  if (identity) {
    session.signedIn(userOf(identity));
    return true;
  }
  session.forget();
  return false;
}

/** Goes to the provider to sign in there, back to this screen afterwards. */
export async function signInWithProvider(settings: ProviderSettings): Promise<void> {
  const { beginProviderSignIn } = await import('./provider-sign-in');
  const { pathname, search } = window.location;
  await beginProviderSignIn(settings, `${pathname}${search}`);
}

/**
 * The page came back from the provider: the code is exchanged for the access token, the service
 * asked who that is, and the screen signing in began on is shown (the sign-in screen, saying
 * why, when something failed).
 */
export async function finishSignInWithProvider(settings: ProviderSettings): Promise<void> {
  const { finishProviderSignIn, ProviderSignInError } = await import('./provider-sign-in');
  let returnTo = CONSOLE_ROOT;
  try {
    const signedIn = await finishProviderSignIn(settings, new URL(window.location.href));
    returnTo = signedIn.returnTo;
    navigate(returnTo, { replace: true });
    session.useToken(signedIn.accessToken, signedIn.endSession);
    const answered = await whoami();
    if (answered.identity) {
      session.signedIn(userOf(answered.identity));
      return;
    }
    await checkSession();
    session.refused(`The service refused the provider's token. ${answered.refusal.message}`);
  } catch (error) {
    if (error instanceof ProviderSignInError) returnTo = error.returnTo;
    navigate(returnTo, { replace: true });
    if (!(error instanceof Error) || error instanceof ApiError) throw error;
    await checkSession();
    session.refused(error.message);
  }
}
