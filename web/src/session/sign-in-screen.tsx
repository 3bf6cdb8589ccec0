import { useState } from 'preact/hooks';
import { ApiError } from '../api/api-error';
import { ErrorMessage } from '../components/error-message';
import { TextField } from '../components/field';
import { Screen } from '../components/screen';
import { ProviderSettings, providerSettingsOf } from './provider-settings';
import { session } from './session';
import { signIn, signInWithProvider } from './sign-in';

/**
 * Asks for a user and password (HTTP Basic). They stay in the page's memory only; the screen
 * the address names is shown once they are accepted.
 */
function PasswordSignIn() {
  const [user, setUser] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | string>();
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      if (!(await signIn(user, password))) setError('The service refused this user and password.');
    } catch (thrown) {
      setError(thrown instanceof ApiError ? thrown : String(thrown));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="sign-in" onSubmit={(event) => void submit(event)}>
      <TextField label="User" value={user} onValue={setUser} autocomplete="username" required />
      <TextField
        label="Password"
        type="password"
        value={password}
        onValue={setPassword}
        autocomplete="current-password"
      />
      <ErrorMessage error={error} />
      <button type="submit" disabled={busy || !user}>
        Sign in
      </button>
    </form>
  );
}

/**
 * Signs in at the OpenID Connect provider: the page goes there and comes back to the screen it
 * was on, signed in.
 */
function ProviderSignIn({ provider }: { provider: ProviderSettings }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const go = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await signInWithProvider(provider);
    } catch (thrown) {
      setError(thrown instanceof Error ? thrown.message : String(thrown));
      setBusy(false);
    }
  };
  return (
    <div class="sign-in">
      <button type="button" disabled={busy} onClick={() => void go()}>
        Sign in with {provider.issuer}
      </button>
      <ErrorMessage error={error} />
    </div>
  );
}

/**
 * What someone signs in with: the provider, when the service names one, and a user and
 * password, when the service takes them (it says so when it asks for credentials).
 */
export function SignInScreen({
  notice,
  failure,
  providerSignOut,
}: {
  notice?: string;
  failure?: string;
  /** The provider's end-session page, after signing out of a provider's sign-in. */
  providerSignOut?: string;
}) {
  const provider = providerSettingsOf(document);
  const basic = session.basicAccepted() || !provider;
  return (
    <Screen title="Sign in">
      {notice && (
        <p class="notice">
          {notice}
          {provider && providerSignOut && (
            <>
              {' '}
              You are still signed in at the provider:{' '}
              <a href={providerSignOut}>Sign out at {provider.issuer} too</a>.
            </>
          )}
        </p>
      )}
      <ErrorMessage error={failure} />
      {provider && <ProviderSignIn provider={provider} />}
      {provider && basic && <p>Or with a user and password of the service:</p>}
      {basic && <PasswordSignIn />}
    </Screen>
  );
}
