import { DomainError } from '../common/domain-error';
import type { RuleViolation } from '../common/domain-error';

/** A change that would break rules of its scope's policy: 422, every rule it breaks listed. */
export class PolicyViolationError extends DomainError {
  readonly kind = 'unprocessable';
  readonly code = 'POLICY_VIOLATION';

  constructor(
    what: string,
    override readonly ruleViolations: RuleViolation[],
  ) {
    super(
      `${what} would break ${ruleViolations.length === 1 ? 'a rule' : `${ruleViolations.length} rules`} ` +
        `of the scope's policy: ${ruleViolations.map((v) => v.rule).join(', ')}`,
    );
  }
}
