import { Injectable } from '@nestjs/common';
import type { Db } from '../database/transaction-host';
import { InjectDb } from '../database/transaction-host';
import { ScopeNotFoundError } from '../scopes/scope.errors';
import { ScopesService } from '../scopes/scopes.service';
import { StreamsService } from '../streams/streams.service';
import { type Compliance, complianceOf } from './compliance';
import { ScopePoliciesRepository } from './scope-policies.repository';

/** How a scope stands against its policy now (docs/extensions.md section 10). */
@Injectable()
export class ScopeComplianceService {
  constructor(
    @InjectDb() private readonly db: Db,
    private readonly scopes: ScopesService,
    private readonly policies: ScopePoliciesRepository,
    private readonly streams: StreamsService,
  ) {}

  /**
   * The report, read in one snapshot: the policy, the streams and their segments of one
   * instant. It reads every user stream of the scope; nothing is locked.
   */
  report(scope: string): Promise<Compliance> {
    return this.db.withTransaction({ isolationLevel: 'REPEATABLE READ' }, async () => {
      if (!(await this.scopes.versionsOf([scope], false)).has(scope)) {
        throw new ScopeNotFoundError(scope);
      }
      const { policy } = await this.policies.find(scope);
      return complianceOf(policy, await this.streams.standing(scope));
    });
  }
}
