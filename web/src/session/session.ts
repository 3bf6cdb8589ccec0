import { createStore } from '../state/store';
import { basicAuthorization, bearerAuthorization, offersBasic } from './credentials';

/** Who is signed in, as `GET /v1/auth/whoami` answers. */
export interface SignedInUser {
  principal: string;
  method: 'basic' | 'bearer' | 'anonymous';
  groups: string[];
}

/** Whether someone must sign in, and who did. */
export type SessionState =
  | { kind: 'checking' }
  /** Authentication is off: every request is anonymous, nobody signs in. */
  | { kind: 'open' }
  | {
      kind: 'signed-out';
      notice?: string;
      /** Why the last attempt to sign in failed, in words. */
      failure?: string;
      /** Where to sign out at the provider too, after signing out here. */
      providerSignOut?: string;
    }
  | { kind: 'signed-in'; user: SignedInUser };

/**
 * The `Authorization` header of the signed-in user: Basic credentials, or the access token of
 * the OpenID Connect provider. Kept in this module's memory only: never in `localStorage`,
 * `sessionStorage` or a cookie, so it lasts as long as the tab's page and no other page or
 * script of the origin can read it afterwards.
 */
let authorization: string | undefined;

/** The provider's end-session page, when signed in there and its discovery names one. */
let providerSignOut: string | undefined;

/**
 * Whether the service takes a user and password (HTTP Basic): it says so in the challenge of a
 * 401 to a request without credentials. Assumed until it answers.
 */
let basicAccepted = true;

const state = createStore<SessionState>({ kind: 'checking' });

export const session = {
  state,
  authorization: (): string | undefined => authorization,
  basicAccepted: (): boolean => basicAccepted,
  /** Uses these credentials for every request from now on (until signed out or refused). */
  useCredentials(user: string, password: string): void {
    authorization = basicAuthorization(user, password);
  },
  /** Uses the provider's access token for every request from now on (RFC 6750). */
  useToken(accessToken: string, endSession?: string): void {
    authorization = bearerAuthorization(accessToken);
    providerSignOut = endSession;
  },
  forget(): void {
    authorization = undefined;
    providerSignOut = undefined;
  },
  signedIn(user: SignedInUser): void {
    state.set({ kind: 'signed-in', user });
  },
  open(): void {
    state.set({ kind: 'open' });
  },
  /** The service asks for credentials (a 401 to a request without any): sign-in is shown. */
  signInNeeded(challenges: string | null): void {
    basicAccepted = offersBasic(challenges);
    session.forget();
    state.set({ kind: 'signed-out' });
  },
  /** Signing in failed (`failure` says why); the sign-in screen shows it. */
  refused(failure: string): void {
    session.forget();
    state.set({ kind: 'signed-out', failure });
  },
  /** A 401: the credentials are gone or wrong (or the token expired); back to sign-in, on the same screen. */
  expire(): void {
    const current = state.get();
    session.forget();
    if (current.kind === 'signed-out') return;
    state.set({
      kind: 'signed-out',
      notice: current.kind === 'signed-in' ? 'The service asked you to sign in again.' : undefined,
    });
  },
  /** Forgets the credentials; after a provider's sign-in, offers signing out there too. */
  signOut(): void {
    const atProvider = providerSignOut;
    session.forget();
    state.set({ kind: 'signed-out', notice: 'You signed out.', providerSignOut: atProvider });
  },
};
