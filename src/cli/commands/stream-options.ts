import { Command, Option } from 'commander';
import { RETENTION_TYPES } from '../../streams/retention-policy';
import { SCALING_TYPES } from '../../streams/scaling-policy';
import { collect, integer } from '../arguments';
import { usageError } from '../exit-codes';
import type { components } from '../generated/api';

type UpdateBody = components['schemas']['UpdateStreamRequest'];
type ScalingConfig = components['schemas']['ScalingConfig'];
type RetentionConfig = components['schemas']['RetentionConfig'];

interface PolicyOptions {
  scalingType?: ScalingConfig['type'];
  minSegments?: number;
  targetRate?: number;
  scaleFactor?: number;
  retentionType?: RetentionConfig['type'];
  retentionValue?: number;
  retentionMaxValue?: number;
  tag?: string[];
  rolloverSizeBytes?: number;
  timestampAggregationTimeout?: number;
}

/** The options of `streams create` and `streams update`: the fields of the request body. */
export function withPolicyOptions(command: Command): Command {
  return command
    .addOption(new Option('--scaling-type <type>', 'scaling policy type').choices(SCALING_TYPES))
    .option('--min-segments <n>', 'segments (fixed) or least segments (by rate)', integer)
    .option('--target-rate <n>', 'target rate per segment (by rate)', integer)
    .option('--scale-factor <n>', 'segments one segment splits into (by rate)', integer)
    .addOption(
      new Option('--retention-type <type>', 'retention policy type').choices(RETENTION_TYPES),
    )
    .option('--retention-value <n>', 'minimum retention: days or MiB', integer)
    .option('--retention-max-value <n>', 'maximum retention: days or MiB', integer)
    .option('--tag <tag>', 'a stream tag (repeat for more)', collect)
    .option('--rollover-size-bytes <n>', 'segment rollover size in bytes', integer)
    .option('--timestamp-aggregation-timeout <ms>', 'timestamp aggregation timeout', integer);
}

const defined = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

/**
 * The request body the options describe; parts not given are left out, so the service applies
 * its own defaults (create) or its own rules (update replaces the whole configuration).
 */
export function policyBody(options: PolicyOptions): Partial<UpdateBody> {
  const scalingGiven = [
    options.scalingType,
    options.minSegments,
    options.targetRate,
    options.scaleFactor,
  ].some((v) => v !== undefined);
  const retentionGiven =
    options.retentionValue !== undefined || options.retentionMaxValue !== undefined;
  if (retentionGiven && options.retentionType === undefined) {
    throw usageError('--retention-value and --retention-max-value need --retention-type');
  }
  return defined({
    scalingPolicy: scalingGiven
      ? defined({
          type: options.scalingType ?? 'FIXED_NUM_SEGMENTS',
          minSegments: options.minSegments,
          targetRate: options.targetRate,
          scaleFactor: options.scaleFactor,
        })
      : undefined,
    retentionPolicy: options.retentionType
      ? defined({
          type: options.retentionType,
          value: options.retentionValue,
          maxValue: options.retentionMaxValue,
        })
      : undefined,
    streamTags: options.tag,
    rolloverSizeBytes: options.rolloverSizeBytes,
    timestampAggregationTimeout: options.timestampAggregationTimeout,
  });
}
