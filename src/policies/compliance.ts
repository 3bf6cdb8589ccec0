import { type ProducedStream, streamViolations } from './policy-rules';
import type { PolicyViolation, ScopePolicy } from './scope-policy';

/** The most non-compliant streams a report lists by name; it counts them all. */
export const MAX_LISTED_STREAMS = 100;

/** A user stream as it stands, with its active segments (none for a sealed one). */
export interface StandingStream extends ProducedStream {
  activeSegments: number;
}

/** The scope-wide limits a report says are exceeded now. */
export type ScopeLimit = 'maxStreams' | 'maxActiveSegments';

export interface NonCompliantStream {
  streamName: string;
  violations: PolicyViolation[];
}

/** How a scope stands against its policy now (docs/extensions.md section 10). */
export interface Compliance {
  streams: number;
  activeSegments: number;
  limitsExceeded: ScopeLimit[];
  nonCompliantCount: number;
  /** The first {@link MAX_LISTED_STREAMS} of them, in the order given. */
  nonCompliant: NonCompliantStream[];
}

/**
 * Judges a scope's user streams, given in name order, against its policy: what exists is held
 * to the rules a `PUT` is held to (names are a rule of creates alone) and to the most segments
 * a stream may have. A policy set over streams that break it is allowed; this says which do.
 */
export function complianceOf(policy: ScopePolicy, streams: readonly StandingStream[]): Compliance {
  let activeSegments = 0;
  let nonCompliantCount = 0;
  const nonCompliant: NonCompliantStream[] = [];
  for (const stream of streams) {
    activeSegments += stream.activeSegments;
    const violations = standingViolations(policy, stream);
    if (violations.length === 0) continue;
    nonCompliantCount += 1;
    if (nonCompliant.length < MAX_LISTED_STREAMS) {
      nonCompliant.push({ streamName: stream.name, violations });
    }
  }
  const limitsExceeded: ScopeLimit[] = [];
  if (over(streams.length, policy.maxStreams)) limitsExceeded.push('maxStreams');
  if (over(activeSegments, policy.maxActiveSegments)) limitsExceeded.push('maxActiveSegments');
  return {
    streams: streams.length,
    activeSegments,
    limitsExceeded,
    nonCompliantCount,
    nonCompliant,
  };
}

function standingViolations(policy: ScopePolicy, stream: StandingStream): PolicyViolation[] {
  const violations = streamViolations(policy, stream, 'update');
  const limit = policy.maxSegmentsPerStream;
  if (limit !== undefined && over(stream.activeSegments, limit)) {
    violations.push({
      rule: 'maxSegmentsPerStream',
      limit,
      actual: stream.activeSegments,
      detail: `The stream has ${stream.activeSegments} active segments, over the limit of ${limit}.`,
    });
  }
  return violations;
}

const over = (count: number, limit: number | undefined): boolean =>
  limit !== undefined && count > limit;
