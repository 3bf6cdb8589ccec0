import { InvalidArgumentError } from 'commander';
import { momentAgo, rates } from './arguments';

describe('momentAgo', () => {
  const now = 1_764_000_000_000;

  it.each([
    ['90s', now - 90_000],
    ['30m', now - 30 * 60_000],
    ['2h', now - 2 * 3_600_000],
    ['1d', now - 86_400_000],
    ['1764000000000', 1_764_000_000_000],
  ])('reads %s', (value, expected) => expect(momentAgo(value, now)).toBe(expected));

  it.each(['', '-30m', '30 m', '1.5h', '30y', 'm', '2h30m'])('refuses %j', (value) =>
    expect(() => momentAgo(value, now)).toThrow(InvalidArgumentError),
  );
});

describe('rates', () => {
  it('reads the four rates in their order, as JSON reads numbers', () => {
    expect(rates('620.5,300, 150,8e1')).toEqual({
      twoMinuteRate: 620.5,
      fiveMinuteRate: 300,
      tenMinuteRate: 150,
      twentyMinuteRate: 80,
    });
  });

  it.each(['620,300,150', '620,300,150,80,1', '620,,150,80', '0x10,1,1,1', 'a,b,c,d', ''])(
    'refuses %j',
    (value) => expect(() => rates(value)).toThrow(InvalidArgumentError),
  );
});
