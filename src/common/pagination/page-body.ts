import type { PageDto } from './page.dto';
import type { Page } from './paginator';

/** A list's body: its items under `key`, and the token only when more may follow. */
export function pageBody<Key extends string, T, Item>(
  key: Key,
  page: Page<T>,
  toItem: (row: T) => Item,
): Record<Key, Item[]> & PageDto {
  const body = { [key]: page.items.map(toItem) } as Record<Key, Item[]> & PageDto;
  if (page.continuationToken !== undefined) body.continuationToken = page.continuationToken;
  return body;
}
