import { Injectable } from '@nestjs/common';
import { setImmediate } from 'node:timers/promises';
import type { Actor } from '../audit/actor';
import type { Recorded } from '../audit/audited-changes.service';
import { streamResource } from '../auth/resources';
import { Operation } from '../common/operations';
import { AppConfig } from '../config/app-config';
import { Tagged } from '../conditional/resource-version';
import { MetricsService } from '../metrics/metrics.service';
import { PolicyViolationError } from '../policies/policy.errors';
import { byStart } from '../scaling/key-ranges';
import {
  coldDecision,
  decide,
  type LoadedStream,
  type LoadReport,
  type LoadSettings,
  marksOf,
  type ScaleDecision,
  type SegmentMarks,
} from '../scaling/load-rules';
import {
  planScale,
  type ScaleOutcome,
  type ScaleStart,
  type Segment,
} from '../scaling/manual-scale';
import { nextEpochTime } from '../scaling/scaling-history';
import { isRateType } from '../streams/scaling-policy';
import { SegmentsService } from '../streams/segments.service';
import type { HeldPolicy, PolicySource } from '../streams/stream-policy-checks.service';
import type { Stream } from '../streams/stream';
import { toStreamProperty } from '../streams/stream.mapper';
import { StreamsService } from '../streams/streams.service';
import type {
  LoadAnswer,
  LoadOutcome,
  LoadReason,
  LoadResult,
  ScaleByLoadRecord,
} from './load-result';
import { SegmentLoadsRepository, type StoredMarks } from './segment-loads.repository';

/** How many reports are taken between two turns of the event loop. */
const YIELD_EVERY = 100;

/** A segment's stored last report is written again at most this many times per silence. */
const REFRESHES_PER_SILENCE = 10;

/** Who a scale by silence is audited as. */
const SWEEPER: Actor = {
  principal: 'system:autoscale',
  clientAddress: null,
  userAgent: null,
  requestId: null,
};

/** A stream as the reports of one request leave it, report after report. */
interface Round {
  stream: Stream;
  start: ScaleStart & { timestamp: number };
  /** The marks of its segments, stored and made by the reports so far. */
  marks: Map<number, SegmentMarks>;
  /** What was stored when the request began. */
  stored: StoredMarks;
  /** The active segments by number. */
  byNumber: Map<number, Segment>;
  /** The segments reported (not ignored), which remember the report. */
  reported: Set<number>;
  sealed: number[];
  /** The audit row and event of each scale made. */
  scales: Recorded[];
  now: number;
  /** False for a dry run: nothing is written, and the policy's row is read, not locked. */
  write: boolean;
  /** The scope's policy: held under its row lock, or read by a dry run. */
  policy: PolicySource;
}

/**
 * Scaling by load (docs/extensions.md section 11): reports of segments' rates taken in their
 * order under the stream's row lock, each seeing what the ones before it did, and acted on by
 * the reference's rules (`scaling/load-rules.ts`). A scale is written as one by hand is, with an
 * audit row and a change-feed event of its own; marks, mutes and last reports are rows of the
 * database, so that any instance may take any report.
 */
@Injectable()
export class LoadReportsService {
  private readonly settings: LoadSettings;
  private readonly silenceMs: number;
  /**
   * How old a segment's stored last report may grow before a report writes it again: reports
   * that change nothing else write nothing most of the time, and silence is read to within this.
   */
  private readonly refreshMs: number;

  constructor(
    config: AppConfig,
    private readonly segments: SegmentsService,
    private readonly streams: StreamsService,
    private readonly loads: SegmentLoadsRepository,
    private readonly metrics: MetricsService,
  ) {
    this.settings = {
      cooldownMs: config.AUTOSCALE_COOLDOWN_MS,
      muteMs: config.AUTOSCALE_MUTE_MS,
      coldMs: config.AUTOSCALE_COLD_MS,
    };
    this.silenceMs = config.AUTOSCALE_SILENCE_MS;
    this.refreshMs = Math.floor(config.AUTOSCALE_SILENCE_MS / REFRESHES_PER_SILENCE);
  }

  /** Takes the reports; a dry run answers the same on one snapshot and changes nothing. */
  async take(
    actor: Actor,
    scope: string,
    name: string,
    reports: LoadReport[],
    dryRun: boolean,
  ): Promise<LoadAnswer> {
    if (dryRun) {
      return this.segments.inSnapshot(scope, name, async (stream) => {
        return (await this.run(stream, reports, 'read')).result;
      });
    }
    const answer = await this.streams.changeUserStream(
      actor,
      scope,
      name,
      undefined,
      async (stream, policy) => {
        const taken = await this.run(stream, reports, policy);
        return { result: taken.result, also: taken.scales };
      },
    );
    this.metrics.loadOutcomes(answer.results.map((r) => r.outcome));
    return answer;
  }

  /** The reports on `stream`; with the policy it holds, made, and with `read`, a dry run. */
  private async run(
    stream: Stream,
    reports: LoadReport[],
    policy: PolicySource,
  ): Promise<{ result: LoadAnswer; scales: Recorded[] }> {
    const start = await this.segments.scaleStart(stream);
    const ignoredAll = (reason: LoadReason) => ({
      result: {
        epoch: start.epoch,
        results: reports.map((r): LoadResult => ({
          segment: r.segment,
          outcome: 'ignored',
          reason,
        })),
      },
      scales: [],
    });
    if (stream.state === 'SEALED') return ignoredAll('STREAM_SEALED');
    if (!isRateType(stream.configuration.scaling.type)) return ignoredAll('FIXED_POLICY');

    const { scopeName: scope, name } = stream;
    const round = await this.roundOf(stream, start, Date.now(), policy);
    const results: LoadResult[] = [];
    for (const [i, report] of reports.entries()) {
      results.push(await this.taken(round, report));
      // A batch is a thousand reports: the readers' requests are answered between its parts.
      if (i % YIELD_EVERY === YIELD_EVERY - 1) await setImmediate();
    }
    if (round.write && (round.reported.size > 0 || round.sealed.length > 0)) {
      const first = round.stored.marks.size === 0;
      const kept = this.remembered(round);
      await this.loads.reported(scope, name, round.now, kept, round.sealed, first);
    }
    return { result: { epoch: round.start.epoch, results }, scales: round.scales };
  }

  /** One report, on the stream as the reports before it left it. */
  private async taken(round: Round, report: LoadReport): Promise<LoadResult> {
    const { segment: number } = report;
    const segment = round.byNumber.get(number);
    if (!segment) return { segment: number, outcome: 'ignored', reason: 'SEGMENT_NOT_ACTIVE' };
    round.reported.add(number);
    const decision = decide(this.loaded(round), segment, report, round.now, this.settings);
    switch (decision.outcome) {
      case 'none':
        return { segment: number, outcome: 'none', reason: decision.reason };
      case 'muted':
        return { segment: number, outcome: 'muted', wanted: decision.wanted };
      case 'markedCold':
        decision.marks.forEach((marks, n) => round.marks.set(n, marks));
        return { segment: number, outcome: 'markedCold', reason: decision.reason };
      default:
        return this.scaled(round, number, decision, report);
    }
  }

  /**
   * Scales by silence the silent segments of a stream (the sweep's): each is taken as cold,
   * and the down rule runs for it without mutes, under the stream's row lock, where its silence
   * is read again. Audited as the principal `system:autoscale`.
   */
  silence(scope: string, name: string, now: number): Promise<void> {
    const sweep = async (stream: Stream, policy: HeldPolicy) => {
      const [found] = await this.loads.silent(this.silentBefore(now), 1, { scope, stream: name });
      const scaling = stream.configuration.scaling;
      if (!found || stream.state === 'SEALED' || !isRateType(scaling.type))
        return { result: undefined };
      const round = await this.roundOf(stream, await this.segments.scaleStart(stream), now, policy);
      const because = `no report for more than ${this.silenceMs / 1000} s`;
      const outcomes: LoadOutcome[] = [];
      for (const number of found.segments) {
        // A segment an earlier one merged with is no longer active.
        const segment = round.byNumber.get(number);
        if (!segment) continue;
        round.reported.add(number);
        const decision = coldDecision(this.loaded(round), segment, now, this.settings, because);
        if (decision.outcome === 'markedCold') {
          decision.marks.forEach((marks, n) => round.marks.set(n, marks));
          outcomes.push(decision.outcome);
        } else if (decision.outcome === 'scaledDown') {
          outcomes.push((await this.scaled(round, number, decision)).outcome);
        }
      }
      await this.loads.swept(scope, name, this.remembered(round), round.sealed);
      this.metrics.loadOutcomes(outcomes);
      return { result: undefined, also: round.scales };
    };
    return this.streams.changeUserStream(SWEEPER, scope, name, undefined, sweep);
  }

  private async roundOf(
    stream: Stream,
    start: ScaleStart & { timestamp: number },
    now: number,
    policy: PolicySource,
  ): Promise<Round> {
    const stored = await this.loads.marksOf(stream.scopeName, stream.name);
    return {
      stream,
      start: { ...start, active: byStart(start.active) },
      byNumber: new Map(start.active.map((segment) => [segment.number, segment])),
      marks: new Map(stored.marks),
      stored,
      reported: new Set(),
      sealed: [],
      scales: [],
      now,
      write: policy !== 'read',
      policy,
    };
  }

  /** A scale the rules decided, made unless the scope's policy refuses it. */
  private async scaled(
    round: Round,
    segmentNumber: number,
    decision: ScaleDecision,
    report?: LoadReport,
  ): Promise<LoadResult> {
    const { stream, start, now } = round;
    const outcome = planScale(start, decision.scale, nextEpochTime(start.timestamp, now));
    try {
      await this.segments.holdToPolicy(stream, outcome, round.policy);
    } catch (error) {
      if (!(error instanceof PolicyViolationError)) throw error;
      return {
        segment: segmentNumber,
        outcome: 'refused',
        reason: 'POLICY_VIOLATION',
        violations: error.ruleViolations,
      };
    }
    if (round.write) {
      const revision = await this.segments.written(stream, outcome);
      round.scales.push({
        audit: {
          operation: Operation.reportLoad,
          resource: streamResource(stream.scopeName, stream.name),
          after: auditOf(segmentNumber, decision, outcome, report),
        },
        shown: Tagged.of(toStreamProperty(stream), revision),
      });
    }
    decision.marks.forEach((marks, n) => round.marks.set(n, marks));
    round.sealed.push(...outcome.sealedSegments);
    round.start = {
      ...start,
      epoch: outcome.epoch,
      timestamp: outcome.timestamp,
      active: outcome.segments,
      nextNumber: start.nextNumber + outcome.newSegments.length,
    };
    for (const number of outcome.sealedSegments) round.byNumber.delete(number);
    for (const segment of outcome.newSegments) round.byNumber.set(segment.number, segment);
    return {
      segment: segmentNumber,
      outcome: decision.outcome,
      because: decision.because,
      sealedSegments: outcome.sealedSegments,
      newSegments: outcome.newSegments,
    };
  }

  private loaded(round: Round): LoadedStream {
    const { scaling } = round.stream.configuration;
    return {
      active: round.start.active,
      marks: round.marks,
      minSegments: scaling.minSegments,
      targetRate: scaling.targetRate!,
      scaleFactor: scaling.scaleFactor!,
    };
  }

  /**
   * The marks to store: of each segment reported and still active whose marks changed, or whose
   * last report stored is older than {@link refreshMs} (or absent). A batch that changes nothing
   * writes no row most of the time.
   */
  private remembered(round: Round): Map<number, SegmentMarks> {
    const kept = new Map<number, SegmentMarks>();
    const { stored, now } = round;
    for (const segment of round.start.active) {
      const { number } = segment;
      if (!round.reported.has(number)) continue;
      const marks = marksOf(segment, round.marks.get(number));
      const before = stored.marks.get(number);
      const lastReport = stored.lastReports.get(number);
      const stale = lastReport === undefined || now - lastReport >= this.refreshMs;
      if (stale || !before || !sameMarks(before, marks)) kept.set(number, marks);
    }
    return kept;
  }

  /**
   * Silent segments are those whose last report stored is before this: the silence, and the
   * refresh by which a stored report may lag a real one, so that none is taken as silent early.
   */
  silentBefore(now: number): number {
    return now - this.silenceMs - this.refreshMs;
  }
}

const sameMarks = (a: SegmentMarks, b: SegmentMarks): boolean =>
  a.lastUp === b.lastUp && a.lastDown === b.lastDown && a.coldUntil === b.coldUntil;

/**
 * The audit row of a scale by load: the segment, the rule in words, what was sealed and opened,
 * and the rates of the report (none for a scale by silence).
 */
function auditOf(
  segment: number,
  decision: ScaleDecision,
  outcome: ScaleOutcome,
  report?: LoadReport,
): ScaleByLoadRecord {
  return {
    segment,
    direction: decision.outcome === 'scaledUp' ? 'up' : 'down',
    ...(report && {
      rates: {
        twoMinuteRate: report.twoMinuteRate,
        fiveMinuteRate: report.fiveMinuteRate,
        tenMinuteRate: report.tenMinuteRate,
        twentyMinuteRate: report.twentyMinuteRate,
      },
    }),
    because: decision.because,
    epoch: outcome.epoch,
    timestamp: outcome.timestamp,
    sealedSegments: outcome.sealedSegments,
    newSegments: outcome.newSegments,
  };
}
