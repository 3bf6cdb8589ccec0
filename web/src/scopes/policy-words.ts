import type { ScopePolicy } from '../api/types';
import { SCALING_TYPES } from '../streams/stream-config';

/** Whether a policy sets anything at all (`{}` is the answer for a scope without one). */
export function hasPolicy(policy: ScopePolicy | undefined): boolean {
  return !!policy && Object.values(policy).some((value) => value !== undefined && value !== null);
}

const plural = (count: number, noun: string): string => (count === 1 ? noun : `${noun}s`);

/** A count limit in words: `5 streams at most`. */
export function limitWords(limit: number, noun: string): string {
  return `${limit.toLocaleString('en')} ${plural(limit, noun)} at most`;
}

/** A count limit with what is used of it: `3 of 5 streams`, `41 of 40 active segments`. */
export function limitUse(used: number, limit: number, noun: string): string {
  return `${used.toLocaleString('en')} of ${limit.toLocaleString('en')} ${plural(limit, noun)}`;
}

/** `a`, `a or b`, `a, b or c`. */
export function alternatives(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

const scalingLabel = (type: string): string =>
  SCALING_TYPES.find((known) => known.value === type)?.label.toLowerCase() ?? type;

/** The rules a policy sets on each stream (not its counts), one sentence each, by rule. */
export interface StreamRules {
  streamNames?: string;
  scalingTypes?: string;
  retention?: string;
  requiredTags?: string;
}

/**
 * A policy's rules for a stream in words, for the scope screen and the create-stream form: the
 * names allowed, the scaling types, retention's bounds, the tags every stream must carry.
 */
export function streamRules(policy: ScopePolicy): StreamRules {
  const rules: StreamRules = {};
  if (policy.streamNames?.length) {
    rules.streamNames = `A new stream's name must match ${alternatives(policy.streamNames)} (* any characters, ? one character).`;
  }
  if (policy.scalingTypes?.length) {
    rules.scalingTypes = `Scaling must be ${alternatives(policy.scalingTypes.map(scalingLabel))}.`;
  }
  const retention = policy.retention;
  if (retention && (retention.required || retention.maxDays || retention.maxSizeMb)) {
    const parts = [
      retention.required ? 'Every stream must have a retention policy' : 'Retention is optional',
      retention.maxDays
        ? `kept by time, at most ${retention.maxDays} ${plural(retention.maxDays, 'day')}`
        : '',
      retention.maxSizeMb ? `kept by size, at most ${retention.maxSizeMb} MB` : '',
    ].filter(Boolean);
    rules.retention = `${parts.join('; ')}.`;
  }
  if (policy.requiredTags?.length) {
    const [first, ...others] = policy.requiredTags;
    rules.requiredTags = others.length
      ? `Every stream needs a tag matching each of ${policy.requiredTags.join(', ')}.`
      : `Every stream needs a tag matching ${first}.`;
  }
  return rules;
}

/** A field's own hint, then the rule of the policy it must follow (when there is one). */
export function withRule(hint: string, rule: string | undefined): string {
  return rule ? `${hint}. ${rule}` : hint;
}

/** How many streams break the policy now, in words: `1 stream breaks the policy now`. */
export function nonCompliantWords(count: number): string {
  return count === 1
    ? '1 stream breaks the policy now'
    : `${count.toLocaleString('en')} streams break the policy now`;
}

/** Those of them not listed, when the list shows only the first: `and 3 more`, or ``. */
export function moreWords(count: number, shown: number): string {
  return count > shown ? `and ${(count - shown).toLocaleString('en')} more` : '';
}
