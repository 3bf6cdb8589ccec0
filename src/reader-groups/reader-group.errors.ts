import { DomainError } from '../common/domain-error';

export class ReaderGroupNotFoundError extends DomainError {
  readonly kind = 'not-found';
  readonly code = 'READER_GROUP_NOT_FOUND';

  constructor(scope: string, group: string) {
    super(`Reader group ${scope}/${group} does not exist`);
  }
}

export class ReaderGroupExistsError extends DomainError {
  readonly kind = 'conflict';
  readonly code = 'READER_GROUP_EXISTS';

  constructor(scope: string, group: string) {
    super(`Reader group ${scope}/${group} already exists`);
  }
}

export class ReaderNotOnlineError extends DomainError {
  readonly kind = 'not-found';
  readonly code = 'READER_NOT_ONLINE';

  constructor(group: string, reader: string) {
    super(`Reader ${reader} is not online in reader group ${group}`);
  }
}
