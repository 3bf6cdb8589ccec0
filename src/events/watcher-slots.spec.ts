import fc from 'fast-check';
import { Principal } from '../auth/principal';
import { holderOf, ReleaseSlot, WatcherSlots } from './watcher-slots';

const taken = (slot: ReturnType<WatcherSlots['take']>): ReleaseSlot => {
  if (typeof slot !== 'function') throw new Error(`refused: ${slot}`);
  return slot;
};

describe('WatcherSlots', () => {
  it("refuses a client beyond its share while another still gets a place, then the instance's", () => {
    const slots = new WatcherSlots(5, 2);
    taken(slots.take('a'));
    taken(slots.take('a'));
    expect(slots.take('a')).toBe('client');
    taken(slots.take('b'));
    taken(slots.take('b'));
    taken(slots.take('c'));
    expect(slots.take('d')).toBe('instance');
    expect(slots.take('c')).toBe('instance');
    expect(slots.take('a')).toBe('client');
    expect([slots.taken(), slots.taken('a'), slots.taken('d')]).toEqual([5, 2, 0]);
  });

  it('gives a place back once, however often it is released', () => {
    const slots = new WatcherSlots(2, 2);
    const first = taken(slots.take('a'));
    taken(slots.take('a'));
    first();
    first();
    expect([slots.taken(), slots.taken('a')]).toEqual([1, 1]);
    taken(slots.take('a'));
    expect(slots.take('a')).toBe('client');
  });

  it('never holds more than its limits, and holds nothing once every place is given back', () => {
    const step = fc.record({ holder: fc.constantFrom('a', 'b', 'c'), release: fc.nat(20) });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 4 }),
        fc.array(step),
        (max, perClient, steps) => {
          const slots = new WatcherSlots(max, perClient);
          const held: Array<{ holder: string; release: ReleaseSlot }> = [];
          for (const { holder, release } of steps) {
            const slot = slots.take(holder);
            if (typeof slot === 'function') held.push({ holder, release: slot });
            else expect(slot).toBe(slots.taken(holder) >= perClient ? 'client' : 'instance');
            if (release % 3 === 0 && held.length > 0)
              held.splice(release % held.length, 1)[0].release();
            expect(slots.taken()).toBe(held.length);
            expect(slots.taken()).toBeLessThanOrEqual(max);
            for (const who of ['a', 'b', 'c']) {
              expect(slots.taken(who)).toBe(held.filter((h) => h.holder === who).length);
              expect(slots.taken(who)).toBeLessThanOrEqual(perClient);
            }
          }
          for (const { release } of held) release();
          expect(slots.taken()).toBe(0);
        },
      ),
    );
  });
});

describe('holderOf', () => {
  it('counts a principal by its name wherever it calls from, and no principal by its address', () => {
    const alice = new Principal('alice', 'basic', []);
    expect(holderOf(alice, '10.0.0.1')).toBe(holderOf(alice, '10.0.0.2'));
    expect(holderOf(undefined, '10.0.0.1')).not.toBe(holderOf(undefined, '10.0.0.2'));
    // An account named like an address is not that address.
    expect(holderOf(new Principal('10.0.0.1', 'basic', []), '10.0.0.9')).not.toBe(
      holderOf(undefined, '10.0.0.1'),
    );
  });
});
