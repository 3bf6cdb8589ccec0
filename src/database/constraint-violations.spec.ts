import { QueryFailedError } from 'typeorm';
import { ScopeExistsError, ScopeNotEmptyError } from '../scopes/scope.errors';
import { translateViolations } from './constraint-violations';

const failing = (code: string) => () =>
  Promise.reject(new QueryFailedError('INSERT ...', [], Object.assign(new Error('pg'), { code })));

const meaning = {
  unique: () => new ScopeExistsError('s'),
  foreignKey: () => new ScopeNotEmptyError('s'),
};

describe('translateViolations', () => {
  it('turns the violations a statement names into their domain errors', async () => {
    await expect(translateViolations(meaning, failing('23505'))).rejects.toEqual(
      new ScopeExistsError('s'),
    );
    await expect(translateViolations(meaning, failing('23503'))).rejects.toEqual(
      new ScopeNotEmptyError('s'),
    );
    // PostgreSQL 18 reports ON DELETE RESTRICT with its own code.
    await expect(translateViolations(meaning, failing('23001'))).rejects.toEqual(
      new ScopeNotEmptyError('s'),
    );
  });

  it('passes on what the statement does not name, and what is no violation', async () => {
    await expect(translateViolations({}, failing('23505'))).rejects.toBeInstanceOf(
      QueryFailedError,
    );
    await expect(translateViolations(meaning, failing('40001'))).rejects.toBeInstanceOf(
      QueryFailedError,
    );
    expect(await translateViolations(meaning, () => Promise.resolve(7))).toBe(7);
  });
});
