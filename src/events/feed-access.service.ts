import { Injectable } from '@nestjs/common';
import { AccessFiles } from '../auth/access-files.service';
import { AuthService } from '../auth/auth.service';
import type { Principal } from '../auth/principal';
import { TokenExpiredWhileWatchingError } from './events.errors';
import type { FeedViewer } from './feed-viewer';

/** The credentials a request came with, to be checked again while it follows the feed. */
export interface Credentials {
  authorization?: string;
}

/**
 * The viewers of the feed: the principal the access guard found, asked again, with the same
 * credentials, once the accounts or group ACLs were read again (SIGHUP), so every event is
 * filtered by the same access check as the lists, as it is when the event is sent.
 */
@Injectable()
export class FeedAccess {
  constructor(
    private readonly files: AccessFiles,
    private readonly auth: AuthService,
  ) {}

  /** The viewer of a request; none while authentication is off (every event is shown). */
  viewerOf(access: Principal | undefined, credentials: Credentials): FeedViewer | undefined {
    if (!access) return undefined;
    let principal = access;
    let generation = this.files.generation;
    return {
      current: async () => {
        if (principal.expiresAt !== undefined && Date.now() >= principal.expiresAt) {
          throw new TokenExpiredWhileWatchingError();
        }
        if (this.files.generation !== generation) {
          generation = this.files.generation;
          principal = await this.auth.recheck(credentials.authorization);
        }
        return principal;
      },
    };
  }
}
