import { InvalidRequestError } from '../common/domain-error';
import { ApplyForbiddenError } from '../apply/apply.errors';
import { PolicyViolationError } from '../policies/policy.errors';
import type { PolicyViolation } from '../policies/scope-policy';
import { bounded, MAX_PROBLEM_ENTRIES, Problem, ReplayedProblem, toProblem } from './problem';

const KIB = 1024;
const bytesOf = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));

const violations = (n: number, field = (i: number) => `sealedSegments[${i}]`) =>
  Array.from({ length: n }, (_, i) => ({ field: field(i), message: 'repeats sealedSegments[0]' }));

describe('bounded problems', () => {
  it('keeps a small problem as it is', () => {
    const problem = toProblem(new InvalidRequestError(violations(3)));
    expect(problem.violations).toEqual(violations(3));
    expect(problem.more).toBeUndefined();
    expect(problem.detail).toBe(
      'sealedSegments[0]: repeats sealedSegments[0]; sealedSegments[1]: repeats sealedSegments[0]; ' +
        'sealedSegments[2]: repeats sealedSegments[0]',
    );
  });

  it('lists the first hundred problems and counts the rest', () => {
    const problem = toProblem(new InvalidRequestError(violations(480_000)));
    expect(problem.violations).toEqual(violations(MAX_PROBLEM_ENTRIES));
    expect(problem.more).toBe(480_000 - MAX_PROBLEM_ENTRIES);
    expect(problem.detail).toMatch(
      /; sealedSegments\[9\]: repeats sealedSegments\[0\] and 479990 more$/,
    );
    expect(bytesOf(problem)).toBeLessThan(16 * KIB);
  });

  it('lists the first hundred missing permissions of a 403', () => {
    const missing = Array.from({ length: 560_000 }, (_, i) => ({
      permission: 'READ',
      resource: `prn::/scope:s${i}`,
    }));
    const problem = toProblem(new ApplyForbiddenError(missing));
    expect(problem.status).toBe(403);
    expect(problem.missing).toEqual(missing.slice(0, MAX_PROBLEM_ENTRIES));
    expect(problem.more).toBe(559_900);
    expect(problem.detail).toMatch(/READ on prn::\/scope:s9 and 559990 more$/);
  });

  it("lists every rule of a scope's policy a change breaks, as a 422", () => {
    const rules: PolicyViolation[] = [
      { rule: 'maxStreams', limit: 5, actual: 6, detail: 'over' },
      { rule: 'requiredTags', limit: 'owner:*', actual: [], detail: 'no tag' },
    ];
    const problem = toProblem(new PolicyViolationError('Creating stream s/t', rules));
    expect(problem).toMatchObject({ status: 422, code: 'POLICY_VIOLATION', ruleViolations: rules });
    expect(problem.detail).toBe(
      "Creating stream s/t would break 2 rules of the scope's policy: maxStreams, requiredTags",
    );
  });

  it("makes a commit refused for passing a scope's count limits a 422 naming each limit passed", () => {
    // As the driver reports what migration PolicyCountsAtCommit raises.
    const refused = Object.assign(new Error('a count limit would be passed'), {
      code: 'TB422',
      detail: JSON.stringify({
        scope: 's',
        maxStreams: 3,
        maxActiveSegments: 4,
        streams: { before: 3, after: 4 },
        activeSegments: { before: 4, after: 6 },
      }),
    });
    const problem = toProblem(refused);
    expect(problem).toMatchObject({ status: 422, code: 'POLICY_VIOLATION' });
    expect(problem.ruleViolations).toEqual([
      expect.objectContaining({ rule: 'maxStreams', limit: 3, actual: 4 }),
      expect.objectContaining({ rule: 'maxActiveSegments', limit: 4, actual: 6 }),
    ]);
    expect(problem.detail).toBe(
      "With the changes to scope s committed before it, the change would break 2 rules of the scope's policy: maxStreams, maxActiveSegments",
    );
  });

  it('lists at most a hundred broken rules, each within its bounds', () => {
    const rules = Array.from({ length: 150 }, (_, i) => ({
      rule: 'requiredTags' as const,
      limit: `${'x'.repeat(5000)}${i}`,
      detail: 'no tag',
    }));
    const problem = toProblem(new PolicyViolationError('Creating stream s/t', rules));
    expect(problem.ruleViolations!.length + problem.more!).toBe(150);
    expect(bytesOf(problem)).toBeLessThan(64 * KIB);
  });

  it('stays under 64 KiB whatever the strings hold', () => {
    const hostile = '\u0001'.repeat(1_000_000);
    const problem = toProblem(
      new InvalidRequestError(violations(1000, () => `scopes[0].${hostile}`)),
    );
    expect(bytesOf(problem)).toBeLessThan(64 * KIB);
    expect(problem.violations!.length).toBeGreaterThan(0);
    expect(problem.violations!.length + problem.more!).toBe(1000);
  });

  it('counts over all its lists', () => {
    const problem = bounded({
      status: 409,
      code: 'X',
      detail: 'x',
      conflicts: Array.from({ length: 80 }, (_, i) => ({ resource: `r${i}`, message: 'm' })),
      missing: Array.from({ length: 80 }, (_, i) => ({ permission: 'READ', resource: `r${i}` })),
    });
    expect(problem.conflicts).toHaveLength(80);
    expect(problem.missing).toHaveLength(20);
    expect(problem.more).toBe(60);
  });

  it('gives a kept problem again as it was kept', () => {
    const kept: Problem = bounded(toProblem(new InvalidRequestError(violations(1000))));
    const replayed = toProblem(new ReplayedProblem(JSON.parse(JSON.stringify(kept)) as Problem));
    expect(replayed).toEqual(kept);
    expect(replayed.more).toBe(900);
  });
});
