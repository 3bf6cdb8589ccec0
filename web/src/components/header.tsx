import { changeFeed, FeedState } from '../live/change-feed';
import { Link, useLocation } from '../routing/router';
import { pathOf, routeOf } from '../routing/routes';
import { session } from '../session/session';
import { useStore } from '../state/use-store';

const SECTIONS = [
  { label: 'Scopes', route: { screen: 'scopes' } },
  { label: 'Audit', route: { screen: 'audit' } },
  { label: 'Health', route: { screen: 'health' } },
  { label: 'Apply', route: { screen: 'apply' } },
] as const;

const FEED_STATES: Record<FeedState, string | undefined> = {
  connecting: 'Connecting to live updates…',
  following: 'Live',
  reconnecting: 'Live updates paused: reconnecting…',
  refused: undefined,
  off: undefined,
};

/** Where one can go, whether the page follows changes, who is signed in, and signing out. */
export function Header() {
  const state = useStore(session.state);
  const feed = FEED_STATES[useStore(changeFeed.state)];
  const { pathname } = useLocation();
  const current = routeOf(pathname).screen;
  const inSection = (screen: string) =>
    screen === current ||
    (screen === 'scopes' && ['scope', 'stream', 'readerGroup'].includes(current));
  return (
    <header class="top">
      <Link class="brand" href={pathOf({ screen: 'scopes' })}>
        Tributary
      </Link>
      <nav aria-label="Main">
        <ul>
          {SECTIONS.map(({ label, route }) => (
            <li key={label}>
              <Link
                href={pathOf(route)}
                aria-current={inSection(route.screen) ? 'page' : undefined}
              >
                {label}
              </Link>
            </li>
          ))}
          <li>
            <a href="/docs">API</a>
          </li>
        </ul>
      </nav>
      {feed && <p class="live">{feed}</p>}
      {state.kind === 'signed-in' && (
        <div class="who">
          <span>
            Signed in as <strong>{state.user.principal}</strong>
            {state.user.groups.length > 0 && (
              <span class="groups"> (groups: {state.user.groups.join(', ')})</span>
            )}
          </span>
          <button type="button" onClick={() => session.signOut()}>
            Sign out
          </button>
        </div>
      )}
    </header>
  );
}
