import { OncePerWindow } from './once-per-window';

/** A computation that counts its runs and resolves only when told to. */
function pending() {
  let runs = 0;
  const resolvers: Array<(value: number) => void> = [];
  const compute = () => {
    runs++;
    return new Promise<number>((resolve) => resolvers.push(resolve));
  };
  return { compute, runs: () => runs, finish: (value: number) => resolvers.shift()!(value) };
}

describe('OncePerWindow', () => {
  let clock = 0;
  const now = () => clock;
  beforeEach(() => (clock = 0));

  it('gives callers that arrive while it runs the one computation in flight', async () => {
    const work = pending();
    const shared = new OncePerWindow(1000, work.compute, now);
    const answers = Array.from({ length: 20 }, () => shared.get());
    work.finish(7);
    expect(await Promise.all(answers)).toEqual(Array(20).fill(7));
    expect(work.runs()).toBe(1);
  });

  it('reuses the result within the window and computes again after it', async () => {
    let runs = 0;
    const shared = new OncePerWindow(1000, () => Promise.resolve(++runs), now);
    expect(await shared.get()).toBe(1);
    clock = 999;
    expect(await shared.get()).toBe(1);
    clock = 1000;
    expect(await shared.get()).toBe(2);
    expect(runs).toBe(2);
  });

  it('computes again at once when the key changes', async () => {
    let runs = 0;
    const shared = new OncePerWindow(1000, () => Promise.resolve(++runs), now);
    expect(await shared.get('serving')).toBe(1);
    expect(await shared.get('draining')).toBe(2);
    expect(await shared.get('draining')).toBe(2);
  });

  it('keeps no failure: the next caller computes again', async () => {
    let runs = 0;
    const shared = new OncePerWindow(
      1000,
      () => (++runs === 1 ? Promise.reject(new Error('down')) : Promise.resolve(runs)),
      now,
    );
    await expect(shared.get()).rejects.toThrow('down');
    expect(await shared.get()).toBe(2);
  });

  it('shares nothing with a window of 0', async () => {
    let runs = 0;
    const shared = new OncePerWindow(0, () => Promise.resolve(++runs), now);
    await Promise.all([shared.get(), shared.get(), shared.get()]);
    expect(runs).toBe(3);
  });
});
