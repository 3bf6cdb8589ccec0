import { ListAnswer } from './list-answer';
import type { Keyset } from '../database/keyset';

/** Everything `json` yields, joined. */
async function text<Item>(answer: ListAnswer<Item>, batchSize = 2): Promise<string> {
  const pieces: Buffer[] = [];
  for await (const piece of answer.json(batchSize)) pieces.push(piece);
  return Buffer.concat(pieces).toString();
}

/** Rows `1..count` read by keyset, with every read recorded. */
function numbers(count: number) {
  const reads: Keyset<number>[] = [];
  const rows = Array.from({ length: count }, (_, i) => i + 1);
  const read = (keyset: Keyset<number>) => {
    reads.push(keyset);
    const after = keyset.after ?? 0;
    return Promise.resolve(rows.filter((n) => n > after).slice(0, keyset.take));
  };
  return { reads, read, positionOf: (n: number) => n };
}

const item = (n: number) => ({ name: `s-${n}`, n });

describe('ListAnswer', () => {
  it.each([0, 1, 2, 3, 4, 5, 7])(
    'streams %i rows as the bytes JSON.stringify makes of the whole list',
    async (count) => {
      const source = numbers(count);
      const answer = ListAnswer.unread('streams', source, item);
      const whole = JSON.stringify({
        streams: Array.from({ length: count }, (_, i) => item(i + 1)),
      });
      expect(await text(answer)).toBe(whole);
    },
  );

  it('sends a large batch in pieces of at most 64 items, the same bytes in all', async () => {
    const answer = ListAnswer.unread('streams', numbers(300), item);
    const pieces: string[] = [];
    for await (const piece of answer.json(200)) pieces.push(piece.toString());
    const whole = JSON.stringify({ streams: Array.from({ length: 300 }, (_, i) => item(i + 1)) });
    expect(pieces.join('')).toBe(whole);
    // 200 rows: 64, 64, 64, 8; then 100 rows: 64, 36; then the closing bracket.
    const counts = pieces.map((piece) => (piece.match(/"name"/g) ?? []).length);
    expect(counts).toEqual([64, 64, 64, 8, 64, 36, 0]);
  });

  it('keeps text that is not ASCII whole, as UTF-8, across pieces', async () => {
    const named = (n: number) => ({ name: `flüsse-日本-${n}-😀`, n });
    const answer = ListAnswer.unread('streams', numbers(130), named);
    const whole = JSON.stringify({ streams: Array.from({ length: 130 }, (_, i) => named(i + 1)) });
    expect(await text(answer, 100)).toBe(whole);
  });

  it('reads a batch and one row more at a time, each after the last row of the one before', async () => {
    const source = numbers(5);
    await text(ListAnswer.unread('streams', source, item), 2);
    expect(source.reads).toEqual([
      { after: undefined, take: 3 },
      { after: 2, take: 3 },
      { after: 4, take: 3 },
    ]);
  });

  it('stops after a batch that is not full, without reading again', async () => {
    const source = numbers(4);
    await text(ListAnswer.unread('streams', source, item), 3);
    expect(source.reads).toHaveLength(2);
  });

  it('yields nothing before the first batch is read, and fails with its read', async () => {
    const failing = ListAnswer.unread(
      'streams',
      { read: () => Promise.reject(new Error('scope not found')), positionOf: (n: number) => n },
      item,
    );
    await expect(failing.json(2).next()).rejects.toThrow('scope not found');
  });

  it('leaves out what `only` refuses, across batches, even a whole batch', async () => {
    const answer = ListAnswer.unread('streams', numbers(7), item)
      .only(({ n }) => n !== 3 && n !== 4)
      .only(({ n }) => n !== 7);
    const kept = [1, 2, 5, 6].map(item);
    expect(await text(answer, 2)).toBe(JSON.stringify({ streams: kept }));
  });

  it('renders a page that was read with its continuation token, as a body and as text', async () => {
    const answer = ListAnswer.of(
      'scopes',
      { items: ['a', 'b'], next: { continuationToken: 't"1', limit: 2 } },
      (s) => ({
        scopeName: s,
      }),
    );
    const body = { scopes: [{ scopeName: 'a' }, { scopeName: 'b' }], continuationToken: 't"1' };
    expect(answer.isUnread).toBe(false);
    expect(answer.toBody()).toEqual(body);
    expect(await text(answer)).toBe(JSON.stringify(body));
    expect(await text(ListAnswer.of('scopes', { items: [] }, (s: string) => s))).toBe(
      '{"scopes":[]}',
    );
  });

  it('filters a page that was read, and has no body in memory when unread', () => {
    const page = ListAnswer.of('scopes', { items: ['a', 'b'] }, (s) => ({ scopeName: s }));
    expect(page.only(({ scopeName }) => scopeName === 'b').toBody()).toEqual({
      scopes: [{ scopeName: 'b' }],
    });
    const unread = ListAnswer.unread('streams', numbers(1), item);
    expect(unread.isUnread).toBe(true);
    expect(() => unread.toBody()).toThrow('no body in memory');
  });
});
