import { useEffect, useState } from 'preact/hooks';
import { ApiError } from './api/api-error';
import { ApplyScreen } from './apply/apply-screen';
import { AuditScreen } from './audit/audit-screen';
import { ErrorMessage } from './components/error-message';
import { Header } from './components/header';
import { OutageBanner } from './components/outage-banner';
import { Screen } from './components/screen';
import { HealthScreen } from './health/health-screen';
import { changeFeed } from './live/change-feed';
import { ReaderGroupScreen } from './reader-groups/reader-group-screen';
import { Link, useLocation } from './routing/router';
import { pathOf, Route, routeOf } from './routing/routes';
import { ScopeScreen } from './scopes/scope-screen';
import { ScopesScreen } from './scopes/scopes-screen';
import { session } from './session/session';
import { providerSettingsOf, SIGN_IN_CALLBACK_PATH } from './session/provider-settings';
import { checkSession, finishSignInWithProvider } from './session/sign-in';
import { SignInScreen } from './session/sign-in-screen';
import { useStore } from './state/use-store';
import { StreamScreen } from './streams/stream-screen';

function ScreenOf({ route }: { route: Route }) {
  switch (route.screen) {
    case 'scopes':
      return <ScopesScreen />;
    case 'scope':
      return <ScopeScreen key={route.scope} scope={route.scope} />;
    case 'stream':
      return (
        <StreamScreen
          key={`${route.scope}/${route.stream}`}
          scope={route.scope}
          stream={route.stream}
        />
      );
    case 'readerGroup':
      return (
        <ReaderGroupScreen
          key={`${route.scope}/${route.group}`}
          scope={route.scope}
          group={route.group}
        />
      );
    case 'audit':
      return <AuditScreen />;
    case 'health':
      return <HealthScreen />;
    case 'apply':
      return <ApplyScreen />;
    default:
      return (
        <Screen title="Not found">
          <p>
            The console has no such page.{' '}
            <Link href={pathOf({ screen: 'scopes' })}>See the scopes</Link>.
          </p>
        </Screen>
      );
  }
}

/** At start: back from the provider's sign-in, or asking whether someone must sign in. */
function startSession(): Promise<void> {
  const provider = providerSettingsOf(document);
  if (provider && window.location.pathname === SIGN_IN_CALLBACK_PATH) {
    return finishSignInWithProvider(provider);
  }
  return checkSession();
}

/**
 * The console: asks whether someone must sign in, then shows the screen the address names. A
 * 401 anywhere brings the sign-in form back in place of the screen, at the same address, which
 * it shows again once signed in.
 */
export function App() {
  const state = useStore(session.state);
  const { pathname } = useLocation();
  const [failure, setFailure] = useState<ApiError>();
  useEffect(() => {
    startSession().catch((error: unknown) => {
      if (error instanceof ApiError) setFailure(error);
    });
  }, []);
  // The change feed is followed with the credentials of whoever is signed in, and only then:
  // the whole feed, or, for someone who may not read it all (403), the scope on screen.
  const following = state.kind === 'open' || state.kind === 'signed-in';
  // A new sign-in (new credentials, even of the same user) follows the feed afresh.
  const user = state.kind === 'signed-in' ? state.user : undefined;
  const route = routeOf(pathname);
  const [wholeRefused, setWholeRefused] = useState(false);
  const feedState = useStore(changeFeed.state);
  if (feedState === 'refused' && changeFeed.scope === undefined && !wholeRefused) {
    setWholeRefused(true);
  }
  const routeScope = 'scope' in route ? route.scope : undefined;
  useEffect(() => {
    if (!following) return undefined;
    setWholeRefused(false);
    return () => changeFeed.stop();
  }, [following, user]);
  useEffect(() => {
    if (!following) return;
    if (!wholeRefused) changeFeed.start();
    else if (routeScope !== undefined) changeFeed.start(routeScope);
  }, [following, user, wholeRefused, routeScope]);
  // Screens read only once the feed's first position is taken (or it cannot be had): no change
  // between their reads and that position goes unseen.
  const shown = following && feedState !== 'off' && feedState !== 'connecting';
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <Header />
      <OutageBanner />
      <main id="main">
        {state.kind === 'checking' &&
          (failure ? <ErrorMessage error={failure} /> : <p role="status">Connecting…</p>)}
        {state.kind === 'signed-out' && (
          <SignInScreen
            notice={state.notice}
            failure={state.failure}
            providerSignOut={state.providerSignOut}
          />
        )}
        {following && !shown && <p role="status">Connecting…</p>}
        {shown && <ScreenOf route={route} />}
      </main>
    </>
  );
}
