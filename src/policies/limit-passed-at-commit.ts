import { PgCode, sqlDetail, sqlState } from '../database/postgres-errors';
import { PolicyViolationError } from './policy.errors';
import { countViolations } from './policy-rules';

/** What the commit's settling of a scope's counts reports (migration PolicyCountsAtCommit). */
interface SettledCounts {
  scope: string;
  maxStreams: number | null;
  maxActiveSegments: number | null;
  streams: { before: number; after: number };
  activeSegments: { before: number; after: number };
}

/**
 * The 422 of a change refused at its commit: it passed its checks, but changes racing it in
 * the same scope committed first, and with theirs its counts would pass a limit. Undefined for
 * any other error.
 */
export function limitPassedAtCommit(error: unknown): PolicyViolationError | undefined {
  if (sqlState(error) !== PgCode.policyLimitPassed) return undefined;
  const settled = JSON.parse(sqlDetail(error) ?? '{}') as SettledCounts;
  const violations = countViolations(
    {
      maxStreams: settled.maxStreams ?? undefined,
      maxActiveSegments: settled.maxActiveSegments ?? undefined,
    },
    { maxStreams: settled.streams, maxActiveSegments: settled.activeSegments },
  );
  return new PolicyViolationError(
    `With the changes to scope ${settled.scope} committed before it, the change`,
    violations,
  );
}
