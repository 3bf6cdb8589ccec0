import { FieldViolation } from '../common/errors/domain-error';

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

/** A retention policy as a client sent it (types already checked). */
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

/** A count of minutes, days, hours or MiB: an integer JSON carries exactly. */
const isCount = (value: unknown): value is number => Number.isSafeInteger(value);

/** Reports a negative count; values of the wrong type are the shape's to report. */
function nonNegative(value: unknown, field: string, violations: FieldViolation[]): void {
  if (typeof value === 'number' && value < 0) {
    violations.push({ field, message: 'must not be negative' });
  }
}

/** Minutes computed exactly, as a number; or a violation when they are too many. */
function safeMinutes(minutes: bigint, field: string, violations: FieldViolation[]): number {
  if (minutes > MAX_SAFE) {
    violations.push({
      field,
      message: `is too long: at most ${Number.MAX_SAFE_INTEGER} minutes in all`,
    });
    return 0;
  }
  return Number(minutes);
}

function totalMinutes(time: TimeBasedRetention): bigint {
  const part = (value: unknown): bigint => (isCount(value) ? BigInt(value) : 0n);
  return (
    part(time.days) * MINUTES_PER_DAY + part(time.hours) * MINUTES_PER_HOUR + part(time.minutes)
  );
}

function checkTime(
  time: TimeBasedRetention | undefined,
  field: string,
  violations: FieldViolation[],
): void {
  if (!time) return;
  nonNegative(time.days, `${field}.days`, violations);
  nonNegative(time.hours, `${field}.hours`, violations);
  nonNegative(time.minutes, `${field}.minutes`, violations);
}

/** A time limit in minutes: whole days when `days` > 0, else the time parts, else none. */
function timeLimit(days: unknown, time: TimeBasedRetention | undefined): bigint | undefined {
  if (isCount(days) && days > 0) return BigInt(days) * MINUTES_PER_DAY;
  if (time) return totalMinutes(time);
  return undefined;
}

/**
 * Converts a client's retention policy to stored units, following the reference's rules;
 * problems into `violations`.
 */
export function retentionPolicyOf(
  input: RetentionPolicyInput | undefined,
  path: string,
  violations: FieldViolation[],
): RetentionPolicy | undefined {
  if (input === undefined || input === null) return undefined;
  const found = violations.length;
  nonNegative(input.value, `${path}.value`, violations);
  nonNegative(input.maxValue, `${path}.maxValue`, violations);
  let min: number;
  let max: number | undefined;
  let maxField = `${path}.maxValue`;

  if (input.type === 'LIMITED_SIZE_MB') {
    if (input.value === undefined || input.value === null) {
      violations.push({ field: `${path}.value`, message: 'is required' });
    }
    min = isCount(input.value) ? input.value : 0;
    max = isCount(input.maxValue) ? input.maxValue : undefined;
  } else {
    checkTime(input.timeBasedRetention, `${path}.timeBasedRetention`, violations);
    checkTime(input.maxTimeBasedRetention, `${path}.maxTimeBasedRetention`, violations);
    if (violations.length > found) return undefined;
    const minField = input.value ? `${path}.value` : `${path}.timeBasedRetention`;
    min = safeMinutes(timeLimit(input.value, input.timeBasedRetention) ?? 0n, minField, violations);
    maxField = input.maxValue ? `${path}.maxValue` : `${path}.maxTimeBasedRetention`;
    const maxMinutes = timeLimit(input.maxValue, input.maxTimeBasedRetention);
    max = maxMinutes === undefined ? undefined : safeMinutes(maxMinutes, maxField, violations);
  }
  if (violations.length === found && max !== undefined && max < min) {
    violations.push({ field: maxField, message: 'must not be less than the minimum retention' });
  }
  const type = input.type === 'LIMITED_SIZE_MB' ? input.type : 'LIMITED_DAYS';
  return max === undefined ? { type, min } : { type, min, max };
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
