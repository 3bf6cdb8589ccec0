import { CliError, Exit } from './exit-codes';

/** One page of a list: its items and, when more may follow, the token of the next page. */
export interface Page<T> {
  items: T[];
  continuationToken?: string;
}

/** The most items a page asks for (docs/extensions.md section 1); a service without paging ignores it. */
export const PAGE_LIMIT = 1000;

/**
 * Every item of a paged list, following `continuationToken` until a page has none. A service
 * that does not page answers everything at once, without a token: one page.
 */
export async function allPages<T>(fetchPage: (token?: string) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let token: string | undefined;
  do {
    const page = await fetchPage(token);
    items.push(...page.items);
    token = page.continuationToken;
    if (token !== undefined && seen.has(token)) {
      throw new CliError(
        `the service returned the continuation token ${token} twice`,
        Exit.unavailable,
      );
    }
    if (token !== undefined) seen.add(token);
  } while (token !== undefined);
  return items;
}
