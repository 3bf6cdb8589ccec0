import { fromLocalInput, pan, toLocalInput, wholeHistory, windowOf, zoom } from './time-window';

describe('windowOf', () => {
  it.each([
    ['', undefined],
    ['from=200&to=300', { from: 200, to: 300 }],
    ['from=200', { from: 200, to: 900 }],
    ['to=500', { from: 0, to: 500 }],
    ['from=300&to=200', undefined],
    ['from=abc&to=-5', undefined],
  ])('%p is %j', (search, window) => {
    expect(windowOf(new URLSearchParams(search), 900)).toEqual(window);
  });
});

describe('wholeHistory', () => {
  it('runs from the first record, or the creation if earlier, to now, a second at least', () => {
    expect(wholeHistory([5000, 7000], 6000, 9000)).toEqual({ from: 5000, to: 9000 });
    expect(wholeHistory([5000, 7000], 4000, 9000)).toEqual({ from: 4000, to: 9000 });
    expect(wholeHistory([], 4000, 9000)).toEqual({ from: 4000, to: 9000 });
    expect(wholeHistory([1500], 1500, 2000)).toEqual({ from: 1000, to: 2000 });
  });
});

describe('zoom and pan', () => {
  it('zooms around the middle', () => {
    expect(zoom({ from: 1000, to: 5000 }, 0.5)).toEqual({ from: 2000, to: 4000 });
    expect(zoom({ from: 1000, to: 5000 }, 2)).toEqual({ from: 0, to: 7000 });
  });
  it('keeps at least a second', () => {
    expect(zoom({ from: 10_000, to: 10_400 }, 0.5)).toEqual({ from: 9700, to: 10_700 });
  });
  it('pans by a fraction of the window, never before 1970', () => {
    expect(pan({ from: 1000, to: 2000 }, 0.5)).toEqual({ from: 1500, to: 2500 });
    expect(pan({ from: 1000, to: 3000 }, -1)).toEqual({ from: 0, to: 2000 });
  });
});

describe('datetime-local values', () => {
  it('read back what they write, to the second', () => {
    const ms = new Date(2026, 10, 23, 22, 33, 5).getTime();
    expect(toLocalInput(ms)).toEqual('2026-11-23T22:33:05');
    expect(fromLocalInput(toLocalInput(ms))).toEqual(ms);
  });
  it('give nothing for an empty or invalid value', () => {
    expect(fromLocalInput('')).toEqual(undefined);
    expect(fromLocalInput('not a time')).toEqual(undefined);
  });
});
