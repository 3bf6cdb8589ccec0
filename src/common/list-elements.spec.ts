import { perArray, repeatedElements, repeatsIn } from './list-elements';

describe('repeatedElements', () => {
  it('points each repeat at the first occurrence', () => {
    expect([...repeatedElements([2, 3, 2, 5, 3, 2])]).toEqual([
      [2, 0],
      [4, 1],
      [5, 0],
    ]);
  });

  it('finds nothing in a list without repeats', () => {
    expect(repeatedElements(['a', 'b', 1, '1']).size).toBe(0);
  });
});

describe('perArray', () => {
  it('computes once per list, however many elements ask', () => {
    const find = jest.fn((values: readonly unknown[]) => values.length);
    const once = perArray(find);
    const list = Array.from({ length: 1000 }, (_, i) => i);
    for (let i = 0; i < list.length; i++) expect(once(list)).toBe(1000);
    expect(find).toHaveBeenCalledTimes(1);
    expect(once([1, 2])).toBe(2);
    expect(find).toHaveBeenCalledTimes(2);
  });

  it('answers repeats of a long list in linear time', () => {
    const tags = Array.from({ length: 200_000 }, (_, i) => `t${i % 100_000}`);
    const started = Date.now();
    let repeats = 0;
    for (let i = 0; i < tags.length; i++) if (repeatsIn(tags).has(i)) repeats++;
    expect(repeats).toBe(100_000);
    // Quadratic, this is 2*10^10 comparisons: minutes, not the second allowed here.
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
