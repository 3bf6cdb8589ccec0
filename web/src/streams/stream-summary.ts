import type { RetentionConfig, ScalingConfig, TimeBasedRetention } from '../api/types';

/** A scaling policy in a few words: `4 fixed segments`, `by 100 events/s ×2, at least 1`. */
export function scalingSummary(policy: ScalingConfig): string {
  const min = policy.minSegments ?? 1;
  if (policy.type === 'FIXED_NUM_SEGMENTS') {
    return `${min} fixed segment${min === 1 ? '' : 's'}`;
  }
  const unit = policy.type === 'BY_RATE_IN_EVENTS_PER_SEC' ? 'events/s' : 'KiB/s';
  return `by ${policy.targetRate ?? '?'} ${unit} ×${policy.scaleFactor ?? '?'}, at least ${min}`;
}

function duration(time: TimeBasedRetention): string {
  const parts = [
    time.days ? `${time.days} d` : '',
    time.hours ? `${time.hours} h` : '',
    time.minutes ? `${time.minutes} min` : '',
  ].filter(Boolean);
  return parts.length ? parts.join(' ') : '0 min';
}

function amount(policy: RetentionConfig, value?: number, time?: TimeBasedRetention): string {
  if (policy.type === 'LIMITED_SIZE_MB') return `${value ?? 0} MiB`;
  if (!value && time) return duration(time);
  return `${value ?? 0} d`;
}

/** A retention policy in a few words: `forever`, `at least 7 d`, `1024 MiB to 2048 MiB`. */
export function retentionSummary(policy: RetentionConfig | undefined): string {
  if (!policy) return 'forever';
  const min = `at least ${amount(policy, policy.value, policy.timeBasedRetention)}`;
  const hasMax = !!policy.maxValue || !!policy.maxTimeBasedRetention;
  return hasMax
    ? `${min}, at most ${amount(policy, policy.maxValue, policy.maxTimeBasedRetention)}`
    : min;
}

/**
 * The reader groups the caller may not see, in words that follow those it sees: ``,
 * `and 1 other group you may not read`, `2 groups you may not read`.
 */
export function hiddenGroupsSummary(shown: number, hidden: number): string {
  if (hidden === 0) return '';
  const groups = `group${hidden === 1 ? '' : 's'}`;
  return shown > 0
    ? `and ${hidden} other ${groups} you may not read`
    : `${hidden} ${groups} you may not read`;
}
