import type { AppConfig } from '../config/app-config';
import type { Keyset } from '../database/keyset';
import { Paginator } from './paginator';
import type { PaginationKeyRepository } from './pagination-key.repository';

const KEY = Buffer.alloc(32, 7);
const keys = { key: () => Promise.resolve(KEY) } as unknown as PaginationKeyRepository;
/** Batches of 3 rows: `letters` (5 of them) is a list longer than a batch. */
const paginator = new Paginator(keys, { LIST_BATCH_SIZE: 3 } as AppConfig);

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

  it('answers a whole list longer than a batch unread, to be read again from its start', async () => {
    const rows = letters();
    const answer = await paginator.answer('things', undefined, rows, item);
    expect(answer.isUnread).toBe(true);
    expect(rows.reads).toEqual([{ take: 4 }]);
    const pieces: Buffer[] = [];
    for await (const piece of answer.json(3)) pieces.push(piece);
    expect(JSON.parse(Buffer.concat(pieces).toString())).toEqual({
      things: ['a', 'b', 'c', 'd', 'e'].map(item),
    });
    expect(rows.reads.slice(1)).toEqual([
      { after: undefined, take: 4 },
      { after: 'c', take: 4 },
    ]);
  });

  it('answers a whole list that fits in a batch at once, read by one statement', async () => {
    const rows = letters();
    const answer = await new Paginator(keys, { LIST_BATCH_SIZE: 5 } as AppConfig).answer(
      'things',
      undefined,
      rows,
      item,
    );
    expect(answer.isUnread).toBe(false);
    expect(rows.reads).toEqual([{ take: 6 }]);
    expect(answer.toBody()).toEqual({ things: ['a', 'b', 'c', 'd', 'e'].map(item) });
  });
});
