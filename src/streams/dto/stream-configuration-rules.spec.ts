import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { toViolations } from '../../http/validation.pipe';
import { MAX_SEGMENTS } from '../scaling-policy';
import { MAX_TAGS } from '../stream-tags';
import { CreateStreamDto } from './create-stream.dto';
import { UpdateStreamDto } from './update-stream.dto';

/** The paths a body breaks, as the validation pipe names them, after one pass. */
function violated(body: object, dto: new () => object = CreateStreamDto): string[] {
  const errors = validateSync(plainToInstance(dto, { streamName: 's', ...body }), {
    whitelist: true,
    forbidUnknownValues: true,
    validationError: { target: true, value: false },
  });
  return toViolations(errors).map((v) => v.field);
}

const messagesOf = (body: object) =>
  toViolations(
    validateSync(plainToInstance(CreateStreamDto, { streamName: 's', ...body }), {
      validationError: { target: true, value: false },
    }),
  );

const tags = (n: number): string[] => Array.from({ length: n }, (_, i) => `tag-${i}`);

describe('the rules of a stream configuration', () => {
  it('accepts a body without policies', () => {
    expect(violated({})).toEqual([]);
  });

  describe('scaling', () => {
    it('needs minSegments of at least 1 for a fixed policy, bounded', () => {
      const fixed = (minSegments?: number) => ({
        scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments },
      });
      expect(violated(fixed(undefined))).toEqual(['scalingPolicy.minSegments']);
      expect(violated(fixed(0))).toEqual(['scalingPolicy.minSegments']);
      expect(violated(fixed(-1))).toEqual(['scalingPolicy.minSegments']);
      expect(violated(fixed(MAX_SEGMENTS))).toEqual([]);
      expect(violated(fixed(MAX_SEGMENTS + 1))).toEqual(['scalingPolicy.minSegments']);
    });

    it('says only that a missing value is required', () => {
      expect(messagesOf({ scalingPolicy: { type: 'FIXED_NUM_SEGMENTS' } })).toEqual([
        { field: 'scalingPolicy.minSegments', message: 'is required' },
      ]);
    });

    it('ignores the rate settings of a fixed policy, once their shape is right', () => {
      const fixed = { type: 'FIXED_NUM_SEGMENTS', minSegments: 1 };
      expect(violated({ scalingPolicy: { ...fixed, targetRate: 0, scaleFactor: -3 } })).toEqual([]);
      // Once: that it is not an integer, not also its bounds.
      expect(violated({ scalingPolicy: { ...fixed, targetRate: 'x' } })).toEqual([
        'scalingPolicy.targetRate',
      ]);
    });

    it.each(['BY_RATE_IN_KBYTES_PER_SEC', 'BY_RATE_IN_EVENTS_PER_SEC'])(
      'names every missing or non-positive field of %s',
      (type) => {
        expect(violated({ scalingPolicy: { type } })).toEqual([
          'scalingPolicy.targetRate',
          'scalingPolicy.scaleFactor',
          'scalingPolicy.minSegments',
        ]);
        expect(
          violated({ scalingPolicy: { type, targetRate: 0, scaleFactor: -2, minSegments: 1 } }),
        ).toEqual(['scalingPolicy.targetRate', 'scalingPolicy.scaleFactor']);
        expect(
          violated({ scalingPolicy: { type, targetRate: 1, scaleFactor: 1, minSegments: 1 } }),
        ).toEqual([]);
      },
    );
  });

  describe('retention', () => {
    it('requires a non-negative value for a size policy', () => {
      expect(violated({ retentionPolicy: { type: 'LIMITED_SIZE_MB' } })).toEqual([
        'retentionPolicy.value',
      ]);
      expect(violated({ retentionPolicy: { type: 'LIMITED_SIZE_MB', value: -1 } })).toEqual([
        'retentionPolicy.value',
      ]);
      expect(violated({ retentionPolicy: { type: 'LIMITED_SIZE_MB', value: 0 } })).toEqual([]);
    });

    it('requires no value for a time policy', () => {
      expect(violated({ retentionPolicy: { type: 'LIMITED_DAYS' } })).toEqual([]);
    });

    it('refuses negative time parts of a time policy, naming each, but not large ones', () => {
      const days = (time: object) => ({
        retentionPolicy: { type: 'LIMITED_DAYS', timeBasedRetention: time },
      });
      expect(violated(days({ days: -1, hours: 1, minutes: -5 }))).toEqual([
        'retentionPolicy.timeBasedRetention.days',
        'retentionPolicy.timeBasedRetention.minutes',
      ]);
      expect(violated(days({ hours: 30, minutes: 90 }))).toEqual([]);
    });

    it('leaves the time parts of a size policy alone, which it does not read', () => {
      expect(
        violated({
          retentionPolicy: { type: 'LIMITED_SIZE_MB', value: 1, timeBasedRetention: { hours: -1 } },
        }),
      ).toEqual([]);
    });

    it('refuses a maximum below the minimum where the maximum was read', () => {
      expect(
        violated({ retentionPolicy: { type: 'LIMITED_SIZE_MB', value: 10, maxValue: 5 } }),
      ).toEqual(['retentionPolicy.maxValue']);
      expect(
        violated({
          retentionPolicy: { type: 'LIMITED_DAYS', value: 2, maxTimeBasedRetention: { days: 1 } },
        }),
      ).toEqual(['retentionPolicy.maxTimeBasedRetention']);
    });

    it('refuses time limits beyond 2^53-1 minutes', () => {
      expect(
        violated({ retentionPolicy: { type: 'LIMITED_DAYS', value: Number.MAX_SAFE_INTEGER } }),
      ).toEqual(['retentionPolicy.value']);
    });
  });

  describe('tags', () => {
    it('accepts 128 distinct tags, counting duplicates once, and refuses 129', () => {
      expect(violated({ streamTags: [...tags(MAX_TAGS), 'tag-0'] })).toEqual([]);
      expect(violated({ streamTags: tags(MAX_TAGS + 1) })).toEqual(['streamTags']);
    });

    it('names each bad tag by its index, a duplicate at its first place', () => {
      expect(violated({ streamTags: ['ok', 'x'.repeat(257), '', 'x'.repeat(257)] })).toEqual([
        'streamTags[1]',
        'streamTags[2]',
      ]);
      expect(violated({ streamTags: ['fine', 'a\u0000b'] })).toEqual(['streamTags[1]']);
      expect(violated({ streamTags: ['x'.repeat(256)] })).toEqual([]);
    });
  });

  it('reports a type error and the broken rules of every other part in one pass', () => {
    expect(
      violated({
        scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 0 },
        retentionPolicy: { type: 'LIMITED_SIZE_MB', value: -1 },
        streamTags: [''],
        rolloverSizeBytes: 'big',
      }).filter((field, i, all) => all.indexOf(field) === i),
    ).toEqual([
      'scalingPolicy.minSegments',
      'retentionPolicy.value',
      'streamTags[0]',
      'rolloverSizeBytes',
    ]);
  });

  it('applies the same rules to an update, which needs a scaling policy', () => {
    expect(violated({}, UpdateStreamDto)).toEqual(expect.arrayContaining(['scalingPolicy']));
    expect(
      violated(
        {
          scalingPolicy: { type: 'BY_RATE_IN_EVENTS_PER_SEC', minSegments: 1, targetRate: 1 },
          streamTags: tags(MAX_TAGS + 1),
        },
        UpdateStreamDto,
      ),
    ).toEqual(['scalingPolicy.scaleFactor', 'streamTags']);
  });
});
