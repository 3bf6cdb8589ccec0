import { readingSettings } from './with-commit';

describe('readingSettings', () => {
  it('reads each placeholder from the setting of its statement and number', () => {
    expect(readingSettings('INSERT INTO t VALUES ($1::json, $2)', 3, 2)).toBe(
      `INSERT INTO t VALUES (current_setting('tributary.with_commit_3_1')::json, ` +
        `current_setting('tributary.with_commit_3_2'))`,
    );
  });

  it('numbers each placeholder by its own digits: $10 is not $1 followed by 0', () => {
    expect(readingSettings('$1 $10', 1, 10)).toBe(
      `current_setting('tributary.with_commit_1_1') current_setting('tributary.with_commit_1_10')`,
    );
  });

  it.each([
    ['a placeholder beyond the values', 'SELECT $3', 2],
    ['$0', 'SELECT $0', 2],
  ])('refuses %s rather than fail at the COMMIT', (_what, sql, values) => {
    expect(() => readingSettings(sql, 1, values)).toThrow(TypeError);
  });
});
