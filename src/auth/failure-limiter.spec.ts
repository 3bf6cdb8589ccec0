import { FailureLimiter, LoginAttempt, Refusal } from './failure-limiter';

const isRefusal = (place: LoginAttempt | Refusal): place is Refusal => 'retryAfterSeconds' in place;

/** A place that must be granted. */
function granted(place: LoginAttempt | Refusal): LoginAttempt {
  if (isRefusal(place)) throw new Error(`refused for ${place.retryAfterSeconds} s`);
  return place;
}

describe('FailureLimiter', () => {
  let now: number;
  let limiter: FailureLimiter;
  const fail = (client: string, account = 'admin'): void =>
    granted(limiter.reserve(client, account)).failed();

  beforeEach(() => {
    now = 0;
    limiter = new FailureLimiter(3, 10_000, () => now);
  });

  it('blocks a client after the maximum within the window, until the window ends', () => {
    for (let i = 0; i < 3; i++) {
      expect(limiter.blockedFor('a')).toBe(0);
      fail('a');
    }
    expect(limiter.blockedFor('a')).toBe(10);
    expect(limiter.reserve('a', 'admin')).toEqual({ retryAfterSeconds: 10 });
    expect(limiter.blockedFor('b')).toBe(0);
    now = 9_500;
    expect(limiter.blockedFor('a')).toBe(1);
    now = 10_000;
    expect(limiter.blockedFor('a')).toBe(0);
    fail('a');
    expect(limiter.blockedFor('a')).toBe(0);
  });

  it('starts the window at the first failure, not at the first check', () => {
    const first = granted(limiter.reserve('a', 'admin'));
    now = 8_000;
    first.failed();
    fail('a');
    fail('a');
    now = 17_999;
    expect(limiter.blockedFor('a')).toBe(1);
    now = 18_000;
    expect(limiter.blockedFor('a')).toBe(0);
  });

  it('counts checks under way: no more run at once than failures are left', () => {
    const under = [1, 2, 3].map(() => granted(limiter.reserve('a', 'admin')));
    // Not blocked (nothing failed yet), but every place is taken: retry in a moment.
    expect(limiter.blockedFor('a')).toBe(0);
    expect(limiter.reserve('a', 'admin')).toEqual({ retryAfterSeconds: 1 });
    expect(isRefusal(limiter.reserve('b', 'admin'))).toBe(false);
    under[0].succeeded();
    const fourth = granted(limiter.reserve('a', 'admin'));
    under[1].failed();
    under[2].failed();
    fourth.failed();
    expect(limiter.blockedFor('a')).toBe(10);
  });

  it('frees the place of a check that could not tell, counting nothing', () => {
    const under = [1, 2, 3].map(() => granted(limiter.reserve('a', 'admin')));
    under.forEach((attempt) => attempt.abandoned());
    for (let i = 0; i < 2; i++) fail('a');
    expect(limiter.blockedFor('a')).toBe(0);
  });

  it('ends an attempt once: a second outcome changes nothing', () => {
    const attempt = granted(limiter.reserve('a', 'admin'));
    attempt.failed();
    attempt.failed();
    attempt.abandoned();
    fail('a');
    expect(limiter.blockedFor('a')).toBe(0);
    fail('a');
    expect(limiter.blockedFor('a')).toBe(10);
  });

  it("clears on a good login that account's failures from that address, and no others", () => {
    fail('a', 'admin');
    fail('a', 'other');
    granted(limiter.reserve('a', 'other')).succeeded();
    // admin's one remains: two more reach three.
    fail('a', 'admin');
    expect(limiter.blockedFor('a')).toBe(0);
    fail('a', 'admin');
    expect(limiter.blockedFor('a')).toBe(10);
  });

  it('never lets a good login as one account reset the guesses at another', () => {
    const statuses: string[] = [];
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 2; i++) {
        const place = limiter.reserve('a', 'admin');
        if (isRefusal(place)) statuses.push('refused');
        else {
          place.failed();
          statuses.push('failed');
        }
      }
      limiter.succeeded('a', 'other');
    }
    expect(statuses).toEqual(['failed', 'failed', 'failed', 'refused', 'refused', 'refused']);
  });

  it('forgets an account that logs in without a check, at that address only', () => {
    fail('a', 'admin');
    fail('a', 'admin');
    fail('b', 'admin');
    fail('b', 'admin');
    limiter.succeeded('a', 'admin');
    fail('a', 'admin');
    fail('a', 'admin');
    expect(limiter.blockedFor('a')).toBe(0);
    fail('b', 'admin');
    expect(limiter.blockedFor('b')).toBe(10);
  });

  it('keeps a check under way across the end of the window', () => {
    fail('a');
    const under = granted(limiter.reserve('a', 'admin'));
    now = 10_000;
    expect(limiter.blockedFor('a')).toBe(0);
    under.failed();
    fail('a');
    fail('a');
    expect(limiter.blockedFor('a')).toBe(10);
  });
});
