import { FieldViolation, InvalidRequestError } from '../common/errors/domain-error';

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

class Checker {
  readonly violations: FieldViolation[] = [];

  constructor(private readonly path: string) {}

  nonNegative(value: number | undefined, field: string): void {
    if (value !== undefined && value !== null && value < 0) {
      this.violations.push({ field: `${this.path}.${field}`, message: 'must not be negative' });
    }
  }

  /** Converts minutes computed exactly to a number, or records that they are too many. */
  safe(minutes: bigint, field: string): number {
    if (minutes > MAX_SAFE) {
      this.violations.push({
        field: `${this.path}.${field}`,
        message: `is too long: at most ${Number.MAX_SAFE_INTEGER} minutes in all`,
      });
      return 0;
    }
    return Number(minutes);
  }

  add(field: string, message: string): void {
    this.violations.push({ field: `${this.path}.${field}`, message });
  }
}

function totalMinutes(time: TimeBasedRetention): bigint {
  return (
    BigInt(time.days ?? 0) * MINUTES_PER_DAY +
    BigInt(time.hours ?? 0) * MINUTES_PER_HOUR +
    BigInt(time.minutes ?? 0)
  );
}

function checkTime(check: Checker, time: TimeBasedRetention | undefined, field: string): void {
  if (!time) return;
  check.nonNegative(time.days, `${field}.days`);
  check.nonNegative(time.hours, `${field}.hours`);
  check.nonNegative(time.minutes, `${field}.minutes`);
}

/** A time limit in minutes: whole days when `days` > 0, else the time parts, else none. */
function timeLimit(
  days: number | undefined,
  time: TimeBasedRetention | undefined,
): bigint | undefined {
  if (days !== undefined && days !== null && days > 0) return BigInt(days) * MINUTES_PER_DAY;
  if (time) return totalMinutes(time);
  return undefined;
}

/** Converts a client's retention policy to stored units, following the reference's rules. */
export function toRetentionPolicy(
  input: RetentionPolicyInput | undefined,
  path = 'retentionPolicy',
): RetentionPolicy | undefined {
  if (input === undefined || input === null) return undefined;
  const check = new Checker(path);
  check.nonNegative(input.value, 'value');
  check.nonNegative(input.maxValue, 'maxValue');
  let min: number;
  let max: number | undefined;
  let maxField = 'maxValue';

  if (input.type === 'LIMITED_SIZE_MB') {
    if (input.value === undefined || input.value === null) check.add('value', 'is required');
    min = input.value ?? 0;
    max = input.maxValue ?? undefined;
  } else {
    checkTime(check, input.timeBasedRetention, 'timeBasedRetention');
    checkTime(check, input.maxTimeBasedRetention, 'maxTimeBasedRetention');
    if (check.violations.length > 0) throw new InvalidRequestError(check.violations);
    const minField = input.value ? 'value' : 'timeBasedRetention';
    min = check.safe(timeLimit(input.value, input.timeBasedRetention) ?? 0n, minField);
    maxField = input.maxValue ? 'maxValue' : 'maxTimeBasedRetention';
    const maxMinutes = timeLimit(input.maxValue, input.maxTimeBasedRetention);
    max = maxMinutes === undefined ? undefined : check.safe(maxMinutes, maxField);
  }
  if (check.violations.length === 0 && max !== undefined && max < min) {
    check.add(maxField, 'must not be less than the minimum retention');
  }
  if (check.violations.length > 0) throw new InvalidRequestError(check.violations);
  return max === undefined ? { type: input.type, min } : { type: input.type, min, max };
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
