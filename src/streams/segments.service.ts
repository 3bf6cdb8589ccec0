import { Injectable } from '@nestjs/common';
import type { Actor } from '../audit/actor';
import { streamResource } from '../auth/resources';
import { isInternalStreamName } from '../common/names';
import { Operation } from '../common/operations';
import type { TagCondition } from '../conditional/entity-tag';
import { requireMatch, ResourceVersion, Tagged } from '../conditional/resource-version';
import type { Db } from '../database/transaction-host';
import { InjectDb } from '../database/transaction-host';
import { planScale, ScaleOutcome, ScaleRequest, ScaleStart } from '../scaling/manual-scale';
import { nextEpochTime } from '../scaling/scaling-history';
import { ScopesService } from '../scopes/scopes.service';
import type { Stream } from './stream';
import {
  InternalStreamError,
  SegmentNotFoundError,
  StreamNotFoundError,
  StreamSealedError,
} from './stream.errors';
import { toStreamProperty } from './stream.mapper';
import { HeldPolicy, PolicySource, StreamPolicyChecks } from './stream-policy-checks.service';
import { SegmentLife, StreamsRepository } from './streams.repository';
import { StreamsService } from './streams.service';

const splitsAndMergesOf = ({ splits, merges }: ScaleOutcome) => ({ splits, merges });

/** The segments of a stream at one moment: its epoch then, and which segments it had. */
export interface SegmentsAtMoment {
  epoch: number;
  segments: ScaleOutcome['segments'];
}

/** How a scale is asked: as a dry run or not, and under which `If-Match`. */
export interface ScaleOptions {
  dryRun: boolean;
  condition?: TagCondition;
}

/**
 * The segments of a stream over time, and scaling it by hand (docs/extensions.md section 7):
 * which segments were active at a moment, one segment's life, and a scale that seals chosen
 * segments and opens new ones over exactly their key space.
 */
@Injectable()
export class SegmentsService {
  constructor(
    @InjectDb() private readonly db: Db,
    private readonly streams: StreamsRepository,
    private readonly streamChanges: StreamsService,
    private readonly scopes: ScopesService,
    private readonly policy: StreamPolicyChecks,
  ) {}

  /**
   * Scales the stream as `request` asks: in one transaction with its audit row, under the
   * stream's row lock, where rules 2 to 6 are checked in their order against the current epoch.
   * A dry run checks the same rules on one snapshot, answers the same and changes nothing.
   */
  scale(
    actor: Actor,
    scope: string,
    name: string,
    request: ScaleRequest,
    { dryRun, condition }: ScaleOptions,
  ): Promise<Tagged<ScaleOutcome>> {
    if (dryRun) return this.dryRun(scope, name, request, condition);
    // If-Match is the last rule, not the first: it is checked in `plan`.
    const scale = async (stream: Stream, policy: HeldPolicy) => {
      const now = Date.now();
      const outcome = await this.plan(stream, request, condition, (last) =>
        nextEpochTime(last, now),
      );
      await this.holdToPolicy(stream, outcome, policy);
      const { epoch, timestamp, sealedSegments, newSegments } = outcome;
      const revision = await this.written(stream, outcome);
      return {
        result: Tagged.of(outcome, revision),
        // The change itself: every active segment would make a row of a large stream large.
        audit: {
          operation: Operation.scaleStream,
          resource: streamResource(scope, name),
          after: { epoch, timestamp, sealedSegments, newSegments, ...splitsAndMergesOf(outcome) },
        },
        // A scale leaves the configuration as it was: the stream's GET, at its new version.
        shown: () => Promise.resolve(Tagged.of(toStreamProperty(stream), revision)),
      };
    };
    return this.streamChanges.changeUserStream(actor, scope, name, undefined, scale);
  }

  /**
   * Writes a planned scale of a stream whose row the caller holds: the new epoch, the segments
   * it seals and opens, and the stream's new version (its `ETag`). Every scale, by hand or by
   * load, is written so.
   */
  async written(stream: Stream, outcome: ScaleOutcome): Promise<ResourceVersion> {
    const { scopeName: scope, name } = stream;
    const { epoch, timestamp, sealedSegments, newSegments } = outcome;
    const first = await this.streams.scale(scope, name, {
      epoch,
      time: timestamp,
      sealed: sealedSegments,
      ranges: newSegments,
    });
    // Under the lock nothing else numbers this stream's segments: the plan's numbers are these.
    if (first !== newSegments[0].number) {
      throw new Error(`scale numbered from ${first}, planned from ${newSegments[0].number}`);
    }
    return this.streams.touch(scope, name);
  }

  /**
   * The stream's current epoch as a scale starts from it, and that epoch's time (the caller
   * holds the stream's row, or reads one snapshot).
   */
  async scaleStart(stream: Stream): Promise<ScaleStart & { timestamp: number }> {
    const base = await this.streams.scaleBase(stream.scopeName, stream.name);
    return {
      epoch: base.epoch,
      timestamp: base.timestamp,
      active: base.segments,
      nextNumber: base.nextNumber,
      minSegments: stream.configuration.scaling.minSegments,
    };
  }

  /**
   * The segments active at `at` (ms since 1970; absent: the current epoch), by keyStart, with
   * the stream's entity tag. Before the stream existed: its epoch 0.
   */
  segmentsAt(scope: string, name: string, at?: number): Promise<Tagged<SegmentsAtMoment>> {
    return this.scopes.within(scope, async () => {
      const found = await this.streams.segmentsAtTime(scope, name, at ?? Number.MAX_SAFE_INTEGER);
      if (!found) throw new StreamNotFoundError(scope, name);
      return Tagged.of({ epoch: found.epoch, segments: found.segments }, found.revision);
    });
  }

  /** One segment's life and its predecessors and successors; 404 for a number never used. */
  segment(scope: string, name: string, number: number): Promise<SegmentLife> {
    return this.scopes.within(scope, async () => {
      const life = await this.streams.segmentLife(scope, name, number);
      if (life) return life;
      if (!(await this.streams.exists(scope, name))) throw new StreamNotFoundError(scope, name);
      throw new SegmentNotFoundError(scope, name, number);
    });
  }

  /** A dry run: the rules in their order, on one snapshot, at the time of now. */
  private dryRun(
    scope: string,
    name: string,
    request: ScaleRequest,
    condition: TagCondition | undefined,
  ): Promise<Tagged<ScaleOutcome>> {
    return this.inSnapshot(scope, name, async (stream) => {
      const outcome = await this.plan(stream, request, condition, () => Date.now());
      await this.holdToPolicy(stream, outcome, 'read');
      return Tagged.of(outcome, stream.revision);
    });
  }

  /**
   * Runs a dry run's `work` on a user stream read in one snapshot, locking nothing: 404 for a
   * missing scope or stream, 400 for an internal stream, as the change itself answers.
   */
  inSnapshot<T>(scope: string, name: string, work: (stream: Stream) => Promise<T>): Promise<T> {
    return this.db.withTransaction({ isolationLevel: 'REPEATABLE READ' }, () =>
      this.scopes.within(scope, async () => {
        const stream = await this.streams.findOne(scope, name);
        if (!stream) throw new StreamNotFoundError(scope, name);
        if (isInternalStreamName(name)) throw new InternalStreamError(scope, name);
        return work(stream);
      }),
    );
  }

  /**
   * The scope's policy, after every other rule: a scale may not raise the stream's or the
   * scope's active segments above their limits. `from`: the policy the change holds (see
   * `StreamPolicyChecks.hold`); a dry run reads its snapshot alone (`read`).
   */
  holdToPolicy(stream: Stream, outcome: ScaleOutcome, from: PolicySource): Promise<void> {
    const after = outcome.segments.length;
    const before = after - outcome.newSegments.length + outcome.sealedSegments.length;
    const what = `Scaling stream ${stream.scopeName}/${stream.name}`;
    return this.policy.check(
      stream.scopeName,
      { what, addsStream: false, segments: { before, after } },
      from,
    );
  }

  /**
   * Rules 2 to 6 against the stream as read (its row locked, or one snapshot): not sealed; the
   * segments to seal active, the ranges matching, the minimum kept (`planScale`); `If-Match`.
   */
  private async plan(
    stream: Stream,
    request: ScaleRequest,
    condition: TagCondition | undefined,
    timeAfter: (lastEpochTime: number) => number,
  ): Promise<ScaleOutcome> {
    const { scopeName: scope, name } = stream;
    if (stream.state === 'SEALED') throw new StreamSealedError(scope, name, 'scaled');
    const start = await this.scaleStart(stream);
    const outcome = planScale(start, request, timeAfter(start.timestamp));
    requireMatch(condition, `stream ${scope}/${name}`, stream.revision);
    return outcome;
  }
}
