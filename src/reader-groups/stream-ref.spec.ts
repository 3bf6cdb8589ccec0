import { violatedFields } from '../../test/support/violated-fields';
import { fromScopedName, MAX_GROUP_STREAMS, streamsNamed, toStreamRefs } from './stream-ref';

describe('toStreamRefs', () => {
  it('reads plain names in the group scope and scoped names as given', () => {
    expect(toStreamRefs(['a', 'other/b'], 'home')).toEqual([
      { scope: 'home', stream: 'a' },
      { scope: 'other', stream: 'b' },
    ]);
  });

  it('drops duplicates, whichever way they are written', () => {
    expect(toStreamRefs(['a', 'home/a', 'b'], 'home')).toEqual([
      { scope: 'home', stream: 'a' },
      { scope: 'home', stream: 'b' },
    ]);
  });

  it('names each invalid entry', () => {
    expect(
      violatedFields(() => toStreamRefs(['ok', 'a/b/c', '_MARKx', 'x/', '/y'], 'home')),
    ).toEqual(['streams[1]', 'streams[2]', 'streams[3]', 'streams[4]']);
  });
});

describe('streamsNamed', () => {
  it('reads what a body names as toStreamRefs would, before it is validated', () => {
    const streams = ['a', 'other/b', 'home/a', 'x/', 'bad name'];
    expect(streamsNamed({ readerGroupName: 'g', streams }, 'home')).toEqual([
      { scope: 'home', stream: 'a' },
      { scope: 'other', stream: 'b' },
      { scope: 'home', stream: 'a' },
      { scope: 'x', stream: '' },
      { scope: 'home', stream: 'bad name' },
    ]);
  });

  it('finds nothing in what is not a list of strings of at most one slash', () => {
    for (const body of [
      undefined,
      null,
      'streams',
      [],
      {},
      { streams: 'other/b' },
      { streams: [1, null, { scope: 'other' }, 'a/b/c'] },
      { streams: Array.from({ length: MAX_GROUP_STREAMS + 1 }, (_, i) => `s/t${i}`) },
    ]) {
      expect(streamsNamed(body, 'home')).toEqual([]);
    }
  });
});

describe('fromScopedName', () => {
  it('splits a stored scoped name at its slash', () => {
    expect(fromScopedName('sales/orders')).toEqual({ scope: 'sales', stream: 'orders' });
  });
});
