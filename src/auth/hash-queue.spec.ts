import { HASHES_AT_ONCE, HashQueue } from './hash-queue';

/** A hash that ends when the test says so, noting when it started. */
interface FakeHash {
  name: string;
  started: boolean;
  finish: () => Promise<void>;
  fail: () => Promise<void>;
  hash: () => Promise<string>;
}

/** Lets every promise callback waiting run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

function fakeHash(name: string, startOrder: string[]): FakeHash {
  let resolve!: (value: string) => void;
  let reject!: (error: Error) => void;
  const done = new Promise<string>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  const fake: FakeHash = {
    name,
    started: false,
    finish: async () => {
      resolve(name);
      await settle();
    },
    fail: async () => {
      reject(new Error(`${name} failed`));
      await settle();
    },
    hash: () => {
      fake.started = true;
      startOrder.push(name);
      return done;
    },
  };
  return fake;
}

describe('HashQueue', () => {
  let order: string[];
  beforeEach(() => {
    order = [];
  });

  it('runs at most as many hashes at once as it may', async () => {
    const queue = new HashQueue(2);
    const hashes = ['a1', 'a2', 'a3', 'a4'].map((name) => fakeHash(name, order));
    const answers = hashes.map((hash) => queue.run('a', hash.hash));
    await settle();
    expect(order).toEqual(['a1', 'a2']);
    await hashes[0].finish();
    expect(order).toEqual(['a1', 'a2', 'a3']);
    await hashes[1].finish();
    await hashes[2].finish();
    await hashes[3].finish();
    expect(await Promise.all(answers)).toEqual(['a1', 'a2', 'a3', 'a4']);
  });

  it("serves the clients' queues in turn: a flood waits behind one hash of another client", async () => {
    const queue = new HashQueue(1);
    const flood = Array.from({ length: 50 }, (_, i) => fakeHash(`flood${i}`, order));
    flood.forEach((hash) => void queue.run('flooder', hash.hash));
    const victim = fakeHash('victim', order);
    const answer = queue.run('victim', victim.hash);
    await settle();
    expect(order).toEqual(['flood0']);
    await flood[0].finish();
    expect(order).toEqual(['flood0', 'victim']);
    await victim.finish();
    expect(await answer).toBe('victim');
    expect(order.at(-1)).toBe('flood1');
  });

  it('gives a free place to the address with the fewest hashes running', async () => {
    const queue = new HashQueue(3);
    const flood = Array.from({ length: 10 }, (_, i) => fakeHash(`flood${i}`, order));
    flood.forEach((hash) => void queue.run('flooder', hash.hash));
    const [other1, other2, victim] = ['other1', 'other2', 'victim'].map((name) =>
      fakeHash(name, order),
    );
    void queue.run('other', other1.hash);
    void queue.run('other', other2.hash);
    void queue.run('victim', victim.hash);
    await settle();
    expect(order).toEqual(['flood0', 'flood1', 'flood2']);
    // The flooder holds three places, the others none: each of them has the next.
    await flood[0].finish();
    await flood[1].finish();
    expect(order.slice(3)).toEqual(['other1', 'victim']);
    // The flooder's last one ends: none of its own run now, other has one.
    await flood[2].finish();
    expect(order.slice(5)).toEqual(['flood3']);
    // other's ends: one of the flooder runs, none of other's.
    await other1.finish();
    expect(order.slice(6)).toEqual(['other2']);
  });

  it('serves addresses never served in the order they came, before those served already', async () => {
    const queue = new HashQueue(1);
    const running = fakeHash('first', order);
    void queue.run('x', running.hash);
    const [a1, b1, a2, c1] = ['a1', 'b1', 'a2', 'c1'].map((name) => fakeHash(name, order));
    void queue.run('a', a1.hash);
    void queue.run('b', b1.hash);
    void queue.run('a', a2.hash);
    void queue.run('c', c1.hash);
    for (const hash of [running, a1, b1, c1, a2]) await hash.finish();
    expect(order).toEqual(['first', 'a1', 'b1', 'c1', 'a2']);
  });

  it('passes on a failed hash and goes on with the next', async () => {
    const queue = new HashQueue(1);
    const [bad, good] = ['bad', 'good'].map((name) => fakeHash(name, order));
    const failing = queue.run('a', bad.hash);
    const next = queue.run('a', good.hash);
    const failed = expect(failing).rejects.toThrow('bad failed');
    await bad.fail();
    await failed;
    await good.finish();
    expect(await next).toBe('good');
  });

  it('goes on after a hash that throws before it returns a promise', async () => {
    const queue = new HashQueue(1);
    await expect(
      queue.run('a', () => {
        throw new Error('at once');
      }),
    ).rejects.toThrow('at once');
    expect(await queue.run('a', () => Promise.resolve('after'))).toBe('after');
  });

  it('runs one hash per core but one, at least one and at most three, by default', () => {
    expect(HASHES_AT_ONCE).toBeGreaterThanOrEqual(1);
    expect(HASHES_AT_ONCE).toBeLessThanOrEqual(3);
  });
});
