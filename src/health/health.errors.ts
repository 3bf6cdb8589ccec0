import { DomainError } from '../common/domain-error';

export class HealthContributorNotFoundError extends DomainError {
  readonly kind = 'not-found';
  readonly code = 'HEALTH_CONTRIBUTOR_NOT_FOUND';

  constructor(path: string[]) {
    super(`No health contributor '${path.join('/')}'`);
  }
}
