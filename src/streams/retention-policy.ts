export const RETENTION_TYPES = ['LIMITED_DAYS', 'LIMITED_SIZE_MB'] as const;
export type RetentionType = (typeof RETENTION_TYPES)[number];

/**
 * A validated retention policy in its stored units: minutes for `LIMITED_DAYS`, MiB for
 * `LIMITED_SIZE_MB`. `max` is absent when the policy has no upper limit.
 */
export interface RetentionPolicy {
  type: RetentionType;
  min: number;
  max?: number;
}

export interface TimeBasedRetention {
  days?: number;
  hours?: number;
  minutes?: number;
}

/** A retention policy as a client sent it, validated by `RetentionConfigDto`. */
export interface RetentionPolicyInput {
  type: RetentionType;
  value?: number;
  timeBasedRetention?: TimeBasedRetention;
  maxValue?: number;
  maxTimeBasedRetention?: TimeBasedRetention;
}

/** A retention policy as the API renders it. */
export interface RetentionPolicyView {
  type: RetentionType;
  value: number;
  timeBasedRetention?: Required<TimeBasedRetention>;
  maxValue?: number;
  maxTimeBasedRetention?: Required<TimeBasedRetention>;
}

const MINUTES_PER_HOUR = 60n;
const MINUTES_PER_DAY = 1440n;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** The fields of a policy that a limit is read from, and so where a limit's problem is named. */
export type RetentionLimitField =
  'value' | 'timeBasedRetention' | 'maxValue' | 'maxTimeBasedRetention';

/** A policy's limits in stored units, computed exactly, with the fields they were read from. */
interface Limits {
  min: bigint;
  minField: RetentionLimitField;
  max?: bigint;
  maxField: RetentionLimitField;
}

/** A count of minutes, days, hours or MiB as the DTO accepts it: a safe integer, not negative. */
const isCount = (value: unknown): value is number =>
  Number.isSafeInteger(value) && Number(value) >= 0;
/** Absent, as JSON's null also says. */
const isAbsent = (value: unknown): value is undefined | null =>
  value === undefined || value === null;
const isCountOrAbsent = (value: unknown): boolean => isAbsent(value) || isCount(value);
const isTimeOrAbsent = (time: TimeBasedRetention | undefined): boolean =>
  isAbsent(time) ||
  (typeof time === 'object' && [time.days, time.hours, time.minutes].every(isCountOrAbsent));

function totalMinutes(time: TimeBasedRetention): bigint {
  const part = (value: number | undefined): bigint => BigInt(value ?? 0);
  return (
    part(time.days) * MINUTES_PER_DAY + part(time.hours) * MINUTES_PER_HOUR + part(time.minutes)
  );
}

/** A time limit in minutes: whole days when `days` > 0, else the time parts, else none. */
function timeLimit(
  days: number | undefined,
  time: TimeBasedRetention | undefined,
): bigint | undefined {
  if (days) return BigInt(days) * MINUTES_PER_DAY;
  if (time) return totalMinutes(time);
  return undefined;
}

/**
 * The limits a policy sets, following the reference's rules; undefined when its type or one of
 * the parts it reads is not valid (the rules of those parts report them).
 */
function limitsOf(input: RetentionPolicyInput): Limits | undefined {
  if (!isCountOrAbsent(input.value) || !isCountOrAbsent(input.maxValue)) return undefined;
  if (input.type === 'LIMITED_SIZE_MB') {
    if (isAbsent(input.value)) return undefined;
    const max = isAbsent(input.maxValue) ? undefined : BigInt(input.maxValue);
    return { min: BigInt(input.value), minField: 'value', max, maxField: 'maxValue' };
  }
  if (input.type !== 'LIMITED_DAYS') return undefined;
  if (!isTimeOrAbsent(input.timeBasedRetention) || !isTimeOrAbsent(input.maxTimeBasedRetention)) {
    return undefined;
  }
  return {
    min: timeLimit(input.value, input.timeBasedRetention) ?? 0n,
    minField: input.value ? 'value' : 'timeBasedRetention',
    max: timeLimit(input.maxValue, input.maxTimeBasedRetention),
    maxField: input.maxValue ? 'maxValue' : 'maxTimeBasedRetention',
  };
}

/**
 * The rules between a policy's fields: each limit fits in 2^53-1 minutes, and the maximum is not
 * below the minimum. The problem named at `field`, if any.
 */
export function retentionLimitProblem(
  input: RetentionPolicyInput,
  field: RetentionLimitField,
): string | undefined {
  const limits = limitsOf(input);
  if (!limits) return undefined;
  const tooLong = `is too long: at most ${Number.MAX_SAFE_INTEGER} minutes in all`;
  const minTooLong = limits.min > MAX_SAFE;
  const maxTooLong = limits.max !== undefined && limits.max > MAX_SAFE;
  if (field === limits.minField && minTooLong) return tooLong;
  if (field !== limits.maxField || limits.max === undefined) return undefined;
  if (maxTooLong) return tooLong;
  return !minTooLong && limits.max < limits.min
    ? 'must not be less than the minimum retention'
    : undefined;
}

/** A validated policy (`RetentionConfigDto`) in stored units. */
export function retentionPolicyOf(input: RetentionPolicyInput): RetentionPolicy {
  const limits = limitsOf(input);
  if (!limits) throw new Error(`retention policy ${input.type} was not validated`);
  const type = input.type;
  const min = Number(limits.min);
  return limits.max === undefined ? { type, min } : { type, min, max: Number(limits.max) };
}

/** Whole days render as `value` days; anything else as days, hours and minutes with value 0. */
function renderTime(minutes: number): { value: number; time: Required<TimeBasedRetention> } {
  const perDay = Number(MINUTES_PER_DAY);
  const days = Math.floor(minutes / perDay);
  const rest = minutes % perDay;
  return {
    value: rest === 0 ? days : 0,
    time: { days, hours: Math.floor(rest / 60), minutes: rest % 60 },
  };
}

/** Renders a stored retention policy the way the API shows it (minimum and, if set, maximum). */
export function renderRetentionPolicy(policy: RetentionPolicy): RetentionPolicyView {
  if (policy.type === 'LIMITED_SIZE_MB') {
    return policy.max === undefined
      ? { type: policy.type, value: policy.min }
      : { type: policy.type, value: policy.min, maxValue: policy.max };
  }
  const min = renderTime(policy.min);
  const view: RetentionPolicyView = {
    type: policy.type,
    value: min.value,
    timeBasedRetention: min.time,
  };
  if (policy.max !== undefined) {
    const max = renderTime(policy.max);
    view.maxValue = max.value;
    view.maxTimeBasedRetention = max.time;
  }
  return view;
}
