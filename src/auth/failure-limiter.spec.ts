import { FailureLimiter } from './failure-limiter';

describe('FailureLimiter', () => {
  it('blocks a client after the maximum within the window, until the window ends', () => {
    let now = 0;
    const limiter = new FailureLimiter(3, 10_000, () => now);
    for (let i = 0; i < 3; i++) {
      expect(limiter.blockedFor('a')).toBe(0);
      limiter.failed('a');
    }
    expect(limiter.blockedFor('a')).toBe(10);
    expect(limiter.blockedFor('b')).toBe(0);
    now = 9_500;
    expect(limiter.blockedFor('a')).toBe(1);
    now = 10_000;
    expect(limiter.blockedFor('a')).toBe(0);
  });

  it('forgets a client that logs in', () => {
    const limiter = new FailureLimiter(2, 10_000, () => 0);
    limiter.failed('a');
    limiter.succeeded('a');
    limiter.failed('a');
    expect(limiter.blockedFor('a')).toBe(0);
  });
});
