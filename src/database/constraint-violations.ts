import { DomainError } from '../common/domain-error';
import { isForeignKeyViolation, PgCode, sqlState } from './postgres-errors';

/** What a statement's constraint violations mean in the domain. */
export interface ViolationMeaning {
  /** A row with the same key exists. */
  unique?: () => DomainError;
  /** A referenced row is missing, or a row to delete is still referenced. */
  foreignKey?: () => DomainError;
}

/**
 * The one place PostgreSQL's constraint violations become domain errors: a repository runs
 * each statement that may violate one through this, naming what the violation means there.
 */
export async function translateViolations<T>(
  meaning: ViolationMeaning,
  statement: () => Promise<T>,
): Promise<T> {
  try {
    return await statement();
  } catch (error) {
    if (meaning.unique && sqlState(error) === PgCode.uniqueViolation) throw meaning.unique();
    if (meaning.foreignKey && isForeignKeyViolation(error)) throw meaning.foreignKey();
    throw error;
  }
}
