import type { ScopePolicy } from '../api/types';
import type { ScalingType } from '../streams/stream-config';

/** A scope's policy as its form holds it: what the person typed, field by field. */
export interface PolicyForm {
  owner: string;
  description: string;
  maxStreams: string;
  maxSegmentsPerStream: string;
  maxActiveSegments: string;
  /** Patterns separated by commas or lines. */
  streamNames: string;
  scalingTypes: ScalingType[];
  retentionRequired: boolean;
  retentionMaxDays: string;
  retentionMaxSizeMb: string;
  /** Patterns one per line (a tag, so a tag's pattern, may hold commas). */
  requiredTags: string;
}

const text = (value: number | undefined): string => (value === undefined ? '' : String(value));

/** The form of a policy as `GET .../policy` answers it (`{}`: an empty form). */
export function policyForm(policy: ScopePolicy): PolicyForm {
  return {
    owner: policy.owner ?? '',
    description: policy.description ?? '',
    maxStreams: text(policy.maxStreams),
    maxSegmentsPerStream: text(policy.maxSegmentsPerStream),
    maxActiveSegments: text(policy.maxActiveSegments),
    streamNames: (policy.streamNames ?? []).join('\n'),
    scalingTypes: [...(policy.scalingTypes ?? [])],
    retentionRequired: policy.retention?.required ?? false,
    retentionMaxDays: text(policy.retention?.maxDays),
    retentionMaxSizeMb: text(policy.retention?.maxSizeMb),
    requiredTags: (policy.requiredTags ?? []).join('\n'),
  };
}

/**
 * The items of a list typed one per line, or also separated by commas (`commas`), each trimmed,
 * blanks dropped.
 */
export function listItems(typed: string, { commas }: { commas: boolean }): string[] {
  return typed
    .split(commas ? /[,\n]/ : /\n/)
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

const WHOLE = /^\d+$/;

/**
 * Reads a form into the body of `PUT .../policy` (the whole policy: an empty field is no rule),
 * or names each count that is not a whole number, by the path the API's 400 would name; every
 * other bound is the API's, whose 400 names its fields the same way.
 */
export function policyRequest(
  form: PolicyForm,
): { body: ScopePolicy } | { problems: Record<string, string> } {
  const problems: Record<string, string> = {};
  const number = (path: string, value: string): number | undefined => {
    const trimmed = value.trim();
    if (trimmed === '') return undefined;
    if (!WHOLE.test(trimmed)) {
      problems[path] = 'must be a whole number';
      return undefined;
    }
    return Number(trimmed);
  };
  const body: ScopePolicy = {};
  const owner = form.owner.trim();
  const description = form.description.trim();
  if (owner) body.owner = owner;
  if (description) body.description = description;
  const counts = ['maxStreams', 'maxSegmentsPerStream', 'maxActiveSegments'] as const;
  for (const count of counts) {
    const value = number(count, form[count]);
    if (value !== undefined) body[count] = value;
  }
  const streamNames = listItems(form.streamNames, { commas: true });
  if (streamNames.length) body.streamNames = streamNames;
  if (form.scalingTypes.length) body.scalingTypes = [...form.scalingTypes];
  const maxDays = number('retention.maxDays', form.retentionMaxDays);
  const maxSizeMb = number('retention.maxSizeMb', form.retentionMaxSizeMb);
  if (form.retentionRequired || maxDays !== undefined || maxSizeMb !== undefined) {
    body.retention = {
      ...(form.retentionRequired ? { required: true } : {}),
      ...(maxDays !== undefined ? { maxDays } : {}),
      ...(maxSizeMb !== undefined ? { maxSizeMb } : {}),
    };
  }
  const requiredTags = listItems(form.requiredTags, { commas: false });
  if (requiredTags.length) body.requiredTags = requiredTags;
  return Object.keys(problems).length ? { problems } : { body };
}
