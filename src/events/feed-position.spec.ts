import { contiguousRun, parsePosition, positionProblem } from './feed-position';

describe('parsePosition', () => {
  it.each([
    ['0', 0n],
    ['42', 42n],
    ['9223372036854775807', 9_223_372_036_854_775_807n],
  ])('reads %s', (text, value) => expect(parsePosition(text)).toBe(value));

  it.each(['', '-1', '1.5', '1e3', ' 1', 'abc', '9223372036854775808', '12345678901234567890'])(
    'refuses %j',
    (text) => expect(parsePosition(text)).toBeUndefined(),
  );
});

describe('positionProblem', () => {
  const never = { oldest: 1n, newest: 10n };
  it('lets a client follow from 0 on a feed that never lost an event, and from any kept id', () => {
    for (const since of [0n, 1n, 5n, 10n]) expect(positionProblem(since, never)).toBeUndefined();
  });
  it('refuses a position beyond the newest', () => {
    expect(positionProblem(11n, never)).toBe('beyond');
    expect(positionProblem(1n, { oldest: 1n, newest: 0n })).toBe('beyond');
  });
  it('calls a position expired when an event after it was deleted', () => {
    const trimmed = { oldest: 5n, newest: 10n };
    expect(positionProblem(0n, trimmed)).toBe('expired');
    expect(positionProblem(3n, trimmed)).toBe('expired');
    expect(positionProblem(4n, trimmed)).toBeUndefined();
    // Everything deleted: only the newest position holds.
    const empty = { oldest: 11n, newest: 10n };
    expect(positionProblem(9n, empty)).toBe('expired');
    expect(positionProblem(10n, empty)).toBeUndefined();
  });
});

describe('contiguousRun', () => {
  it('takes the ids that follow the position without a hole', () => {
    expect(contiguousRun(4n, [5n, 6n, 7n])).toBe(3);
    expect(contiguousRun(4n, [5n, 7n, 8n])).toBe(1);
    expect(contiguousRun(4n, [6n])).toBe(0);
    expect(contiguousRun(4n, [])).toBe(0);
  });
});

/**
 * The ordering rule, on a model of concurrent transactions. Each transaction starts, works, and
 * commits; a reader polls what is visible and follows from its position, as a watcher does.
 * Ids taken from a sequence when the row is written commit out of order, and a reader that
 * moved past a later id skips an earlier one that commits after; ids taken at commit, one
 * transaction at a time (the feed's rule), never let that happen.
 */
describe('the ordering rule (model)', () => {
  type Step = { tx: number; at: 'write' | 'commit' };

  /** Seeded pseudo-random numbers, so that a failure can be replayed. */
  function random(seed: number): () => number {
    let state = seed;
    return () => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return state / 2_147_483_648;
    };
  }

  /** An interleaving of `count` transactions: each writes its event, then commits. */
  function interleaving(count: number, next: () => number): Step[] {
    const open: number[] = [];
    const steps: Step[] = [];
    let started = 0;
    while (started < count || open.length > 0) {
      if (started < count && (open.length === 0 || next() < 0.5)) {
        steps.push({ tx: started, at: 'write' });
        open.push(started++);
      } else {
        const [tx] = open.splice(Math.floor(next() * open.length), 1);
        steps.push({ tx, at: 'commit' });
      }
    }
    return steps;
  }

  /** Runs the steps, a reader polling after each; what the reader saw, in order. */
  function follow(steps: Step[], idAtCommit: boolean): number[] {
    let sequence = 0;
    const idOf = new Map<number, number>();
    const visible = new Set<number>();
    const seen: number[] = [];
    let position = 0;
    for (const step of steps) {
      if (step.at === 'write' && !idAtCommit) idOf.set(step.tx, ++sequence);
      if (step.at === 'commit') {
        if (idAtCommit) idOf.set(step.tx, ++sequence);
        visible.add(idOf.get(step.tx)!);
      }
      const ids = [...visible].filter((id) => id > position).sort((a, b) => a - b);
      for (const id of ids) seen.push(id);
      if (ids.length > 0) position = ids[ids.length - 1];
    }
    return seen;
  }

  it('with ids taken at commit, every reader sees every event once, in id order', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const steps = interleaving(30, random(seed));
      const seen = follow(steps, true);
      expect(seen).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
      const bigints = seen.map(BigInt);
      expect(contiguousRun(0n, bigints)).toBe(30);
    }
  });

  it('with ids taken when the row is written, some reader misses an event', () => {
    const missed = Array.from({ length: 200 }, (_, i) =>
      follow(interleaving(30, random(i + 1)), false),
    ).filter((seen) => seen.length < 30);
    expect(missed.length).toBeGreaterThan(0);
  });
});
