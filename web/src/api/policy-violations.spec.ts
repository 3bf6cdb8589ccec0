import { placeViolations, SCALE_PLACES, STREAM_FORM_PLACES } from './policy-violations';

const violation = (rule: string, detail: string) => ({ rule, limit: 1, detail });

describe('placeViolations', () => {
  it('places each stream rule next to its field, and the count of streams on the form', () => {
    const placed = placeViolations(
      [
        violation('streamNames', 'The name does not match.'),
        violation('scalingTypes', 'Scaling is not allowed.'),
        violation('retention.required', 'Retention is required.'),
        violation('retention.maxDays', 'Too many days.'),
        violation('requiredTags', 'No tag matches owner:*.'),
        violation('requiredTags', 'No tag matches team:*.'),
        violation('maxSegmentsPerStream', 'Too many segments.'),
        violation('maxStreams', 'Too many streams.'),
      ],
      STREAM_FORM_PLACES,
    );
    expect(placed).toEqual({
      fields: {
        streamName: 'The name does not match.',
        'scalingPolicy.type': 'Scaling is not allowed.',
        'retentionPolicy.type': 'Retention is required. Too many days.',
        streamTags: 'No tag matches owner:*. No tag matches team:*.',
        'scalingPolicy.minSegments': 'Too many segments.',
      },
      unplaced: ['Too many streams.'],
    });
  });

  it('places the segment limits of a scale on its parts; a rule unknown to the form on the form', () => {
    expect(
      placeViolations(
        [violation('maxActiveSegments', 'Too many.'), violation('somethingNew', 'New rule.')],
        SCALE_PLACES,
      ),
    ).toEqual({ fields: { parts: 'Too many.' }, unplaced: ['New rule.'] });
  });

  it('places nothing when there is nothing', () => {
    expect(placeViolations(undefined, STREAM_FORM_PLACES)).toEqual({ fields: {}, unplaced: [] });
  });
});
