import type { Keyset } from './paginator';
import { Paginator } from './paginator';
import type { PaginationKeyRepository } from './pagination-key.repository';

const KEY = Buffer.alloc(32, 7);
const paginator = new Paginator({
  key: () => Promise.resolve(KEY),
} as unknown as PaginationKeyRepository);

/** Names `a`..`e` read by keyset, every read recorded. */
function letters() {
  const reads: Keyset<string>[] = [];
  const all = ['a', 'b', 'c', 'd', 'e'];
  return {
    reads,
    positionOf: (name: string) => name,
    read: (keyset: Keyset<string>) => {
      reads.push(keyset);
      return Promise.resolve(all.filter((n) => n > (keyset.after ?? '')).slice(0, keyset.take));
    },
  };
}

const item = (name: string) => ({ name });

describe('Paginator.answer', () => {
  it('answers the page a request asks for, read at once, with the token of the next', async () => {
    const rows = letters();
    const request = await paginator.request<string>(['things'], { limit: 2 });
    const answer = await paginator.answer('things', request, rows, item);
    expect(answer.isUnread).toBe(false);
    expect(rows.reads).toEqual([expect.objectContaining({ after: undefined, take: 3 })]);
    const body = answer.toBody() as { things: unknown[]; continuationToken: string };
    expect(body.things).toEqual([{ name: 'a' }, { name: 'b' }]);
    const next = await paginator.request<string>(['things'], {
      continuationToken: body.continuationToken,
    });
    expect(next?.after).toBe('b');
  });

  it('answers the whole list, unread, when no page is asked for', async () => {
    const rows = letters();
    const answer = await paginator.answer('things', undefined, rows, item);
    expect(answer.isUnread).toBe(true);
    expect(rows.reads).toEqual([]);
    let text = '';
    for await (const piece of answer.json(2)) text += piece;
    expect(JSON.parse(text)).toEqual({ things: ['a', 'b', 'c', 'd', 'e'].map(item) });
  });
});
