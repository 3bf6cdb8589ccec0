import { isAlive, lowestStatus, HealthStatus } from './health-status';

const { UP, STARTING, NEW, UNKNOWN, DOWN, FAILED } = HealthStatus;

describe('lowestStatus', () => {
  it('follows UP 3 > STARTING 2 > NEW 1 > UNKNOWN 0 > DOWN -1 > FAILED -2', () => {
    const order = [UP, STARTING, NEW, UNKNOWN, DOWN, FAILED];
    order.forEach((higher, i) =>
      order.slice(i).forEach((lower) => {
        expect(lowestStatus([higher, lower])).toBe(lower);
        expect(lowestStatus([lower, higher])).toBe(lower);
      }),
    );
  });

  it('is UP for nothing at all', () => {
    expect(lowestStatus([])).toBe(UP);
  });
});

describe('isAlive', () => {
  it('counts NEW and above as alive, as the reference does', () => {
    expect([UP, STARTING, NEW, UNKNOWN, DOWN, FAILED].map(isAlive)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
  });
});
