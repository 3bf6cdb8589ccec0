import type { RuleViolation } from '../common/domain-error';
import type { Segment } from '../scaling/manual-scale';

/** What a report did to its segment (docs/extensions.md section 11). */
export const LOAD_OUTCOMES = [
  'scaledUp',
  'scaledDown',
  'markedCold',
  'muted',
  'none',
  'ignored',
  'refused',
] as const;
export type LoadOutcome = (typeof LOAD_OUTCOMES)[number];

export const LOAD_REASONS = [
  'STREAM_SEALED',
  'FIXED_POLICY',
  'SEGMENT_NOT_ACTIVE',
  'COOLING_DOWN',
  'BELOW_THRESHOLD',
  'AT_MIN_SEGMENTS',
  'NO_COLD_NEIGHBOUR',
  'POLICY_VIOLATION',
] as const;
export type LoadReason = (typeof LOAD_REASONS)[number];

export interface LoadResult {
  segment: number;
  outcome: LoadOutcome;
  reason?: LoadReason;
  wanted?: 'up' | 'down';
  because?: string;
  sealedSegments?: number[];
  newSegments?: Segment[];
  violations?: RuleViolation[];
}

export interface LoadAnswer {
  epoch: number;
  results: LoadResult[];
}

/**
 * What the audit row of a scale by load holds (`after`): written by `LoadReportsService`, read
 * back by `LoadScalesService`. `rates` is absent for a scale by silence.
 */
export interface ScaleByLoadRecord {
  segment: number;
  direction: 'up' | 'down';
  rates?: {
    twoMinuteRate: number;
    fiveMinuteRate: number;
    tenMinuteRate: number;
    twentyMinuteRate: number;
  };
  because: string;
  epoch: number;
  timestamp: number;
  sealedSegments: number[];
  newSegments: Segment[];
}
