import { InvalidRequestError } from '../../src/common/domain-error';

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
