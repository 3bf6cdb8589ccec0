import { FieldViolation, InvalidRequestError } from '../../src/common/errors/domain-error';

/** The fields a rule rejects, in order; fails the test when the rule accepts instead. */
export function violatedFields(rule: () => unknown): string[] {
  try {
    rule();
  } catch (error) {
    if (error instanceof InvalidRequestError) return error.violations.map((v) => v.field);
    throw error;
  }
  throw new Error('expected the rule to reject its input');
}

/** Runs a rule that reports into a list of violations, throwing them as a request would. */
export function checked<T>(rule: (violations: FieldViolation[]) => T): T {
  const violations: FieldViolation[] = [];
  const result = rule(violations);
  if (violations.length > 0) throw new InvalidRequestError(violations);
  return result;
}
