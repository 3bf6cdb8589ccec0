import type { ComponentChildren } from 'preact';
import { useMemo } from 'preact/hooks';
import { createStore } from '../state/store';
import { useStore } from '../state/use-store';

interface Location {
  pathname: string;
  search: string;
}

const here = (): Location => ({
  pathname: window.location.pathname,
  search: window.location.search,
});

/** The page's address: every screen and its filters, pages and windows are read from it. */
const location = createStore<Location>(here());
window.addEventListener('popstate', () => location.set(here()));

/** Goes to another address of the console without loading the page again. */
export function navigate(href: string, { replace = false, state }: NavigateOptions = {}): void {
  if (replace) window.history.replaceState(state ?? null, '', href);
  else window.history.pushState(state ?? null, '', href);
  location.set(here());
}

export interface NavigateOptions {
  replace?: boolean;
  /** Kept with the history entry (a list's earlier pages). */
  state?: unknown;
}

export function useLocation(): Location {
  return useStore(location);
}

/** The address's query (filters, page, time window). */
export function useQuery(): URLSearchParams {
  const { search } = useLocation();
  return useMemo(() => new URLSearchParams(search), [search]);
}

interface LinkProps {
  href: string;
  children: ComponentChildren;
  class?: string;
  'aria-current'?: 'page';
}

/** A link within the console: a plain link (new tab, copy address) that navigates in place. */
export function Link({ href, children, ...rest }: LinkProps) {
  const follow = (event: MouseEvent) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
      return;
    }
    event.preventDefault();
    navigate(href);
  };
  return (
    <a {...rest} href={href} onClick={follow}>
      {children}
    </a>
  );
}
