import { Injectable } from '@nestjs/common';
import type { Actor } from '../audit/actor';
import { AuditService } from '../audit/audit.service';
import { Permission } from '../auth/acl';
import type { AccessNeed, AccessRule } from '../auth/access.decorator';
import type { Principal } from '../auth/auth.service';
import { CHANGE_ACCESS, ChangeOperation, readOnStreams } from '../auth/needs';
import { ROOT_RESOURCE, scopeResource } from '../auth/resources';
import { ifMatchHolds, TagCondition } from '../conditional/entity-tag';
import { PreconditionFailedError } from '../conditional/resource-version';
import { DomainError } from '../common/domain-error';
import { Operation } from '../common/operations';
import type { Db } from '../database/transaction-host';
import { InjectDb } from '../database/transaction-host';
import { ReaderGroupsService } from '../reader-groups/reader-groups.service';
import { fromScopedName, mayReadStream, toStreamRefs } from '../reader-groups/stream-ref';
import { ScopesService } from '../scopes/scopes.service';
import { StreamNotFoundError } from '../streams/stream.errors';
import { StreamsService } from '../streams/streams.service';
import type { ApplyAnswer } from './plan-answer';
import type { ApplyDocument, DesiredStream } from './desired-state';
import type { Plan, PlanConflict, PlannedChange } from './planned-change';
import { PolicyViolationError } from '../policies/policy.errors';
import { ScopePoliciesService } from '../policies/scope-policies.service';
import { ApplyConflictError, ApplyForbiddenError } from './apply.errors';
import { toCurrentState } from './current-state';
import { makePlan } from './plan';
import { operationsOf, toApplyAnswer } from './plan-answer';
import { validateApplyDocument } from './validate-apply-document';

export interface ApplyOptions {
  dryRun: boolean;
  /** `If-Match`: the planVersion the client saw. */
  ifMatch?: TagCondition;
}

/**
 * Changes run in this order, so each finds what it needs: scopes first, then their policies (the
 * ones the stream changes were judged by), groups after the streams they read, pruned streams
 * after the pruned groups that read them. Unchanged ones run nothing.
 */
const ORDER = [
  'scope:create',
  'scopePolicy:create',
  'scopePolicy:update',
  'scopePolicy:delete',
  'stream:create',
  'stream:update',
  'readerGroup:delete',
  'readerGroup:create',
  'stream:delete',
];

const phaseOf = (change: PlannedChange): number => ORDER.indexOf(`${change.kind}:${change.action}`);

/** The path parameters of a change's resource, to ask for its permission as its route would. */
function paramsOf(change: PlannedChange): Record<string, string> {
  const { target } = change;
  if (target.kind === 'stream')
    return { scopeName: target.scopeName, streamName: target.streamName };
  if (target.kind === 'readerGroup')
    return { scopeName: target.scopeName, readerGroupName: target.readerGroupName };
  return { scopeName: target.scopeName };
}

/**
 * Declarative apply (docs/extensions.md section 5): reads what the document lists, plans with the
 * pure planner and, unless it is a dry run, runs the whole plan in one transaction through the
 * features' own operations, so each change is checked and audited as its single request would be.
 */
@Injectable()
export class ApplyService {
  constructor(
    @InjectDb() private readonly db: Db,
    private readonly scopes: ScopesService,
    private readonly streams: StreamsService,
    private readonly groups: ReaderGroupsService,
    private readonly audit: AuditService,
    private readonly policies: ScopePoliciesService,
  ) {}

  async apply(
    actor: Actor,
    access: Principal | undefined,
    body: unknown,
    options: ApplyOptions,
  ): Promise<ApplyAnswer> {
    const document = validateApplyDocument(body);
    try {
      if (access) this.assertMayPlan(access, document);
      return await this.db.withTransaction(async () => {
        // A real apply locks what it reads: its plan stays true until it commits. Its answer
        // names the streams of other scopes that a group reads only to who may read them.
        const state = await this.currentState(document, !options.dryRun);
        const plan = makePlan(document, state, (name) => mayReadStream(access, name));
        if (access && !options.dryRun) this.assertMayApply(access, plan);
        if (!ifMatchHolds(options.ifMatch, plan.planVersion)) {
          throw new PreconditionFailedError('what the plan read', plan.planVersion);
        }
        // A dry run runs no operation, so it asks beforehand what the operations would refuse:
        // "dry run or not" (docs/extensions.md section 5, Running it).
        const refused = options.dryRun ? await this.refusedReads(plan) : [];
        const conflicts = [...plan.conflicts, ...refused];
        if (conflicts.length > 0) throw new ApplyConflictError(conflicts);
        if (!options.dryRun) {
          // Judged as the whole plan, under the policies' locks; a dry run lists them instead.
          if (plan.violations.length > 0) {
            throw new PolicyViolationError('Applying the document', plan.violations);
          }
          await this.execute(actor, document, plan);
        }
        return toApplyAnswer(plan, options.dryRun);
      });
    } catch (error) {
      if (error instanceof ApplyForbiddenError) {
        await this.audit.denied(actor, {
          operation: Operation.applyDocument,
          resource: ROOT_RESOURCE,
        });
      }
      throw error;
    }
  }

  /**
   * The reader groups the plan creates that would read a stream that neither exists nor is
   * listed in the document: the create-reader-group operation refuses them with 404
   * (docs/behaviour.md section 6), so the real apply answers 409 naming the group. Each is named
   * with that operation's own words, for its first missing stream. Pruned streams still exist
   * when groups are created (they are deleted last), so they count as existing.
   */
  private async refusedReads(plan: Plan): Promise<PlanConflict[]> {
    const planned = new Set(
      plan.changes.flatMap(({ target }) =>
        target.kind === 'stream' ? [`${target.scopeName}/${target.streamName}`] : [],
      ),
    );
    const reads = plan.changes.flatMap((change) =>
      change.action === 'create' && change.target.kind === 'readerGroup'
        ? [{ change, streams: change.target.streams ?? [] }]
        : [],
    );
    const asked = toStreamRefs(
      reads.flatMap((read) => read.streams).filter((name) => !planned.has(name)),
      '',
    );
    const present = asked.length > 0 ? await this.streams.findExisting(asked) : new Set();
    return reads.flatMap(({ change, streams }) => {
      const missing = streams.find((name) => !planned.has(name) && !present.has(name));
      if (missing === undefined) return [];
      const { scope, stream } = fromScopedName(missing);
      return [
        { resource: change.resource, message: new StreamNotFoundError(scope, stream).message },
      ];
    });
  }

  /**
   * What the plan reads. The policies are read, not locked: a scope's counts are taken only by
   * the commit of a change that moved them (migration PolicyCountsAtCommit), after that change's
   * streams, and that commit fails an apply whose counts, with those of the changes committed
   * before it, would pass a limit.
   */
  private async currentState(document: ApplyDocument, lock: boolean) {
    const names = document.scopes.map((s) => s.scopeName);
    const versions = await this.scopes.versionsOf(names, lock);
    const present = [...versions.keys()];
    const policies = await this.policies.policiesOf(present);
    return toCurrentState(versions, {
      policies,
      streams: await this.streams.userStreamsIn(present, lock),
      groups: await this.groups.groupsIn(present, lock),
      activeSegments: await this.streams.activeSegmentsIn(present),
    });
  }

  /**
   * What planning needs, asked of the document alone before anything is read, so that the
   * answer does not depend on what exists: READ on each listed scope, and on every stream a
   * listed reader group reads.
   */
  private assertMayPlan(access: Principal, document: ApplyDocument): void {
    const needed: AccessNeed[] = document.scopes.flatMap(({ scopeName, readerGroups }) => [
      { permission: Permission.READ, resource: scopeResource(scopeName) },
      ...(readerGroups ?? []).flatMap((group) =>
        readOnStreams(toStreamRefs(group.streams, scopeName)),
      ),
    ]);
    const missing = access.lacks(needed);
    if (missing.length > 0) throw new ApplyForbiddenError(missing);
  }

  /** What a real apply needs besides: the permission of every change's operation. */
  private assertMayApply(access: Principal, plan: Plan): void {
    const needed = plan.changes.flatMap((change) =>
      operationsOf(change).flatMap((operation) => {
        const rule: AccessRule = CHANGE_ACCESS[operation];
        const params = paramsOf(change);
        const { target } = change;
        const streams = target.kind === 'readerGroup' ? target.streams : undefined;
        return [
          { permission: rule.permission, resource: rule.resource(params) },
          ...(rule.named?.({ streams }, params) ?? []),
        ];
      }),
    );
    const missing = access.lacks(needed);
    if (missing.length > 0) throw new ApplyForbiddenError(missing);
  }

  private async execute(actor: Actor, document: ApplyDocument, plan: Plan): Promise<void> {
    const desired = new Map<string, DesiredStream>();
    for (const scope of document.scopes) {
      for (const stream of scope.streams ?? []) {
        desired.set(`${scope.scopeName}/${stream.streamName}`, stream);
      }
    }
    const ordered = [...plan.changes].sort((a, b) => phaseOf(a) - phaseOf(b));
    for (const change of ordered) {
      for (const operation of operationsOf(change)) {
        await this.run(actor, operation, change, desired).catch((error: unknown) => {
          // A change its single request would refuse (a stream a group reads is missing, a
          // stream still read by another group) stops the document, naming the resource.
          if (error instanceof DomainError && error.kind !== 'invalid') {
            throw new ApplyConflictError([{ resource: change.resource, message: error.message }]);
          }
          throw error;
        });
      }
    }
    this.audit.changed(actor, {
      operation: Operation.applyDocument,
      resource: ROOT_RESOURCE,
      after: { summary: plan.summary, planVersion: plan.planVersion, prune: !!document.prune },
    });
  }

  private async run(
    actor: Actor,
    operation: ChangeOperation,
    change: PlannedChange,
    desired: Map<string, DesiredStream>,
  ): Promise<unknown> {
    const { target } = change;
    switch (operation) {
      case 'createScope':
        return this.scopes.create(actor, target.scopeName);
      case 'updateScopePolicy':
        if (target.kind !== 'scopePolicy') break;
        return this.policies.replace(actor, target.scopeName, target.policy);
      case 'createStream':
      case 'updateStream': {
        if (target.kind !== 'stream') break;
        const stream = desired.get(`${target.scopeName}/${target.streamName}`)!;
        // The plan judged it with the rest of the document (plan-policies.ts).
        const policed = { policyJudged: true };
        return operation === 'createStream'
          ? this.streams.create(actor, target.scopeName, stream, policed)
          : this.streams.update(
              actor,
              target.scopeName,
              target.streamName,
              stream,
              undefined,
              policed,
            );
      }
      case 'updateStreamState':
        if (target.kind !== 'stream') break;
        return this.streams.seal(actor, target.scopeName, target.streamName);
      case 'deleteStream':
        if (target.kind !== 'stream') break;
        return this.streams.delete(actor, target.scopeName, target.streamName);
      case 'createReaderGroup':
        if (target.kind !== 'readerGroup') break;
        return this.groups.create(actor, target.scopeName, {
          readerGroupName: target.readerGroupName,
          streams: target.streams!,
        });
      case 'deleteReaderGroup':
        if (target.kind !== 'readerGroup') break;
        return this.groups.delete(actor, target.scopeName, target.readerGroupName);
    }
    throw new Error(`${operation} does not apply to a ${target.kind}`);
  }
}
