import type { PolicyViolation } from './types';

/** Where a form shows each rule's violation: the path of its field in the form's request. */
export type ViolationPlaces = Partial<Record<string, string>>;

/**
 * A stream's create and edit forms: each stream rule next to the field it judges, the
 * per-stream segment limits next to the segments; the count of streams has no field.
 */
export const STREAM_FORM_PLACES: ViolationPlaces = {
  streamNames: 'streamName',
  scalingTypes: 'scalingPolicy.type',
  'retention.required': 'retentionPolicy.type',
  'retention.maxDays': 'retentionPolicy.type',
  'retention.maxSizeMb': 'retentionPolicy.type',
  requiredTags: 'streamTags',
  maxSegmentsPerStream: 'scalingPolicy.minSegments',
  maxActiveSegments: 'scalingPolicy.minSegments',
};

/** The scale dialog: the segment limits next to the parts each segment is cut into. */
export const SCALE_PLACES: ViolationPlaces = {
  maxSegmentsPerStream: 'parts',
  maxActiveSegments: 'parts',
};

/** A 422 `POLICY_VIOLATION`'s violations, placed: by field, and those no field shows. */
export interface PlacedViolations {
  fields: Record<string, string>;
  unplaced: string[];
}

/**
 * Each violation's detail next to the field its rule judges (several on one field joined);
 * a rule the form has no field for (`maxStreams`, a rule the console does not know yet) is
 * left for a message of the whole form.
 */
export function placeViolations(
  violations: readonly PolicyViolation[] | undefined,
  places: ViolationPlaces,
): PlacedViolations {
  const placed: PlacedViolations = { fields: {}, unplaced: [] };
  for (const { rule, detail } of violations ?? []) {
    const field = places[rule];
    if (!field) placed.unplaced.push(detail);
    else placed.fields[field] = placed.fields[field] ? `${placed.fields[field]} ${detail}` : detail;
  }
  return placed;
}
