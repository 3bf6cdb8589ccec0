import {
  RetentionPolicyInput,
  renderRetentionPolicy,
  retentionLimitProblem,
  retentionPolicyOf,
} from './retention-policy';

const toRetentionPolicy = retentionPolicyOf;

const roundTrip = (input: RetentionPolicyInput) => renderRetentionPolicy(toRetentionPolicy(input));

describe('retentionPolicyOf', () => {
  it('stores whole days in minutes', () => {
    expect(toRetentionPolicy({ type: 'LIMITED_DAYS', value: 2 })).toEqual({
      type: 'LIMITED_DAYS',
      min: 2880,
    });
  });

  it('uses days, hours and minutes when value is 0 or absent', () => {
    const time = { days: 1, hours: 2, minutes: 3 };
    expect(toRetentionPolicy({ type: 'LIMITED_DAYS', value: 0, timeBasedRetention: time })).toEqual(
      { type: 'LIMITED_DAYS', min: 1440 + 120 + 3 },
    );
    expect(toRetentionPolicy({ type: 'LIMITED_DAYS', timeBasedRetention: time }).min).toBe(1563);
  });

  it('prefers value over timeBasedRetention when value is positive', () => {
    expect(
      toRetentionPolicy({ type: 'LIMITED_DAYS', value: 1, timeBasedRetention: { minutes: 5 } }).min,
    ).toBe(1440);
  });

  it('does not require hours below 24 or minutes below 60', () => {
    expect(
      toRetentionPolicy({ type: 'LIMITED_DAYS', timeBasedRetention: { hours: 30, minutes: 90 } })
        .min,
    ).toBe(30 * 60 + 90);
  });

  it('is 0 minutes when neither value nor time is given', () => {
    expect(toRetentionPolicy({ type: 'LIMITED_DAYS' })).toEqual({ type: 'LIMITED_DAYS', min: 0 });
  });

  it('takes the maximum from maxValue days, else from maxTimeBasedRetention', () => {
    expect(toRetentionPolicy({ type: 'LIMITED_DAYS', value: 1, maxValue: 3 }).max).toBe(3 * 1440);
    expect(
      toRetentionPolicy({
        type: 'LIMITED_DAYS',
        value: 1,
        maxValue: 0,
        maxTimeBasedRetention: { days: 1, hours: 12 },
      }).max,
    ).toBe(1440 + 720);
  });

  it('keeps sizes in MiB with an optional maximum', () => {
    expect(toRetentionPolicy({ type: 'LIMITED_SIZE_MB', value: 100 })).toEqual({
      type: 'LIMITED_SIZE_MB',
      min: 100,
    });
    expect(toRetentionPolicy({ type: 'LIMITED_SIZE_MB', value: 100, maxValue: 200 })).toEqual({
      type: 'LIMITED_SIZE_MB',
      min: 100,
      max: 200,
    });
    expect(toRetentionPolicy({ type: 'LIMITED_SIZE_MB', value: 0 }).min).toBe(0);
  });

  it('converts time limits up to 2^53-1 minutes exactly', () => {
    expect(
      toRetentionPolicy({
        type: 'LIMITED_DAYS',
        value: Math.floor(Number.MAX_SAFE_INTEGER / 1440),
      }).min,
    ).toBe(Math.floor(Number.MAX_SAFE_INTEGER / 1440) * 1440);
  });
});

describe('retentionLimitProblem', () => {
  it('names a maximum below the minimum at the field the maximum was read from', () => {
    const size: RetentionPolicyInput = { type: 'LIMITED_SIZE_MB', value: 10, maxValue: 5 };
    expect(retentionLimitProblem(size, 'maxValue')).toMatch(/less than the minimum/);
    expect(retentionLimitProblem(size, 'value')).toBeUndefined();
    const days: RetentionPolicyInput = {
      type: 'LIMITED_DAYS',
      value: 2,
      maxTimeBasedRetention: { days: 1 },
    };
    expect(retentionLimitProblem(days, 'maxTimeBasedRetention')).toMatch(/less than the minimum/);
    expect(retentionLimitProblem(days, 'maxValue')).toBeUndefined();
  });

  it('names a time limit beyond 2^53-1 minutes', () => {
    const input: RetentionPolicyInput = { type: 'LIMITED_DAYS', value: Number.MAX_SAFE_INTEGER };
    expect(retentionLimitProblem(input, 'value')).toMatch(/too long/);
    const parts: RetentionPolicyInput = {
      type: 'LIMITED_DAYS',
      timeBasedRetention: { minutes: Number.MAX_SAFE_INTEGER, hours: 1 },
    };
    expect(retentionLimitProblem(parts, 'timeBasedRetention')).toMatch(/too long/);
  });

  it('leaves invalid parts to their own rules', () => {
    const negative: RetentionPolicyInput = { type: 'LIMITED_SIZE_MB', value: -1, maxValue: -5 };
    expect(retentionLimitProblem(negative, 'maxValue')).toBeUndefined();
    const missing: RetentionPolicyInput = { type: 'LIMITED_SIZE_MB', maxValue: 0 };
    expect(retentionLimitProblem(missing, 'maxValue')).toBeUndefined();
  });
});

describe('renderRetentionPolicy', () => {
  it('renders whole days as value and days with zero hours and minutes', () => {
    expect(roundTrip({ type: 'LIMITED_DAYS', value: 7 })).toEqual({
      type: 'LIMITED_DAYS',
      value: 7,
      timeBasedRetention: { days: 7, hours: 0, minutes: 0 },
    });
  });

  it('renders whole days given as time parts the same way', () => {
    expect(roundTrip({ type: 'LIMITED_DAYS', timeBasedRetention: { hours: 48 } })).toEqual({
      type: 'LIMITED_DAYS',
      value: 2,
      timeBasedRetention: { days: 2, hours: 0, minutes: 0 },
    });
  });

  it('renders other times as value 0 and normalized days, hours and minutes', () => {
    expect(
      roundTrip({ type: 'LIMITED_DAYS', timeBasedRetention: { days: 1, hours: 25, minutes: 61 } }),
    ).toEqual({
      type: 'LIMITED_DAYS',
      value: 0,
      timeBasedRetention: { days: 2, hours: 2, minutes: 1 },
    });
  });

  it('renders the maximum the same way when set', () => {
    expect(
      roundTrip({
        type: 'LIMITED_DAYS',
        value: 1,
        maxTimeBasedRetention: { days: 1, minutes: 30 },
      }),
    ).toEqual({
      type: 'LIMITED_DAYS',
      value: 1,
      timeBasedRetention: { days: 1, hours: 0, minutes: 0 },
      maxValue: 0,
      maxTimeBasedRetention: { days: 1, hours: 0, minutes: 30 },
    });
    expect(roundTrip({ type: 'LIMITED_DAYS', value: 1, maxValue: 2 })).toMatchObject({
      maxValue: 2,
      maxTimeBasedRetention: { days: 2, hours: 0, minutes: 0 },
    });
  });

  it('renders sizes in MiB with the maximum when set', () => {
    expect(roundTrip({ type: 'LIMITED_SIZE_MB', value: 5 })).toEqual({
      type: 'LIMITED_SIZE_MB',
      value: 5,
    });
    expect(roundTrip({ type: 'LIMITED_SIZE_MB', value: 5, maxValue: 9 })).toEqual({
      type: 'LIMITED_SIZE_MB',
      value: 5,
      maxValue: 9,
    });
  });
});
