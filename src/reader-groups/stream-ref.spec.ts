import { violatedFields } from '../../test/support/violated-fields';
import { toStreamRefs } from './stream-ref';

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
