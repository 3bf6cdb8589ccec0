import { navigate, useLocation, useQuery } from '../routing/router';
import { withQuery } from '../routing/routes';

/** The earlier pages' tokens of each list of a screen, kept with the history entry. */
interface PageHistory {
  earlier: Record<string, (string | undefined)[]>;
}

function earlierPages(param: string): (string | undefined)[] {
  const state = window.history.state as Partial<PageHistory> | null;
  const pages = state?.earlier?.[param];
  return Array.isArray(pages) ? pages : [];
}

/** The continuation token of the page the address names (none: the first page). */
export function usePageToken(param: string): string | undefined {
  return useQuery().get(param) ?? undefined;
}

/**
 * Moves through a list's pages as the API hands them out: the next page by the token the
 * current one carried, back by the tokens kept with the browser's history, and to the first.
 * The page's token is in the address (`param`), so a page can be linked and reloaded.
 */
export function Pager({ next, label, param }: { next?: string; label: string; param: string }) {
  const { pathname } = useLocation();
  const query = useQuery();
  const current = query.get(param) ?? undefined;
  const earlier = earlierPages(param);
  const go = (token: string | undefined, pages: (string | undefined)[]) => {
    const state = (window.history.state as Partial<PageHistory> | null) ?? {};
    navigate(withQuery(pathname, { ...Object.fromEntries(query), [param]: token }), {
      state: { earlier: { ...state.earlier, [param]: pages } } satisfies PageHistory,
    });
  };
  if (!current && !next) return null;
  return (
    <nav class="pager" aria-label={`Pages of ${label}`}>
      <button type="button" disabled={!current} onClick={() => go(undefined, [])}>
        First page
      </button>
      <button
        type="button"
        disabled={!current || earlier.length === 0}
        onClick={() => go(earlier[earlier.length - 1], earlier.slice(0, -1))}
      >
        Previous page
      </button>
      <button type="button" disabled={!next} onClick={() => go(next, [...earlier, current])}>
        Next page
      </button>
    </nav>
  );
}
