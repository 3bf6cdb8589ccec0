import type {
  CreateStreamRequest,
  RetentionConfig,
  ScalingConfig,
  StreamProperty,
  TimeBasedRetention,
  UpdateStreamRequest,
} from '../api/types';

export type ScalingType = ScalingConfig['type'];
export type RetentionType = RetentionConfig['type'] | 'NONE';

export const SCALING_TYPES: readonly { value: ScalingType; label: string }[] = [
  { value: 'FIXED_NUM_SEGMENTS', label: 'Fixed number of segments' },
  { value: 'BY_RATE_IN_EVENTS_PER_SEC', label: 'By rate, events per second' },
  { value: 'BY_RATE_IN_KBYTES_PER_SEC', label: 'By rate, KiB per second' },
];

export const RETENTION_TYPES: readonly { value: RetentionType; label: string }[] = [
  { value: 'NONE', label: 'Keep forever' },
  { value: 'LIMITED_DAYS', label: 'By time (days)' },
  { value: 'LIMITED_SIZE_MB', label: 'By size (MiB)' },
];

/** Days, hours and minutes as typed. */
export interface DurationFields {
  days: string;
  hours: string;
  minutes: string;
}

/** A stream's configuration as its form holds it: what the person typed, field by field. */
export interface StreamConfigForm {
  scalingType: ScalingType;
  minSegments: string;
  targetRate: string;
  scaleFactor: string;
  retentionType: RetentionType;
  retentionValue: string;
  retentionMaxValue: string;
  retentionTime: DurationFields;
  retentionMaxTime: DurationFields;
  /** One tag per line (a tag may hold commas). */
  tags: string;
  timestampAggregationTimeout: string;
  rolloverSizeBytes: string;
}

const NO_DURATION: DurationFields = { days: '', hours: '', minutes: '' };

/** A new stream's form: the defaults of create (one fixed segment, kept forever). */
export function newStreamForm(): StreamConfigForm {
  return {
    scalingType: 'FIXED_NUM_SEGMENTS',
    minSegments: '1',
    targetRate: '',
    scaleFactor: '',
    retentionType: 'NONE',
    retentionValue: '',
    retentionMaxValue: '',
    retentionTime: NO_DURATION,
    retentionMaxTime: NO_DURATION,
    tags: '',
    timestampAggregationTimeout: '',
    rolloverSizeBytes: '',
  };
}

const text = (value: number | undefined): string => (value === undefined ? '' : String(value));

const durationFields = (duration: TimeBasedRetention | undefined): DurationFields =>
  duration
    ? { days: text(duration.days), hours: text(duration.hours), minutes: text(duration.minutes) }
    : NO_DURATION;

/** The form of an existing stream, as `GET` stream answers it. */
export function streamForm(stream: StreamProperty): StreamConfigForm {
  const { scalingPolicy: scaling, retentionPolicy: retention } = stream;
  return {
    scalingType: scaling.type,
    minSegments: text(scaling.minSegments),
    targetRate: text(scaling.targetRate),
    scaleFactor: text(scaling.scaleFactor),
    retentionType: retention?.type ?? 'NONE',
    retentionValue: text(retention?.value),
    retentionMaxValue: text(retention?.maxValue),
    retentionTime: durationFields(retention?.timeBasedRetention),
    retentionMaxTime: durationFields(retention?.maxTimeBasedRetention),
    tags: stream.tags.join('\n'),
    timestampAggregationTimeout: text(stream.timestampAggregationTimeout || undefined),
    rolloverSizeBytes: text(stream.rolloverSizeBytes || undefined),
  };
}

/** A field that must hold a whole number and does not, by its path in the request. */
export type FormProblems = Record<string, string>;

const WHOLE = /^-?\d+$/;

/**
 * Reads a form into the body of create or update (`PUT` replaces everything, so every field is
 * sent), or names each number field that does not hold a whole number; every other rule is the
 * API's, whose 400 names its fields the same way.
 */
export function streamConfiguration(
  form: StreamConfigForm,
): { body: UpdateStreamRequest } | { problems: FormProblems } {
  const problems: FormProblems = {};
  const number = (path: string, value: string): number | undefined => {
    const trimmed = value.trim();
    if (trimmed === '') return undefined;
    if (!WHOLE.test(trimmed)) {
      problems[path] = 'must be a whole number';
      return undefined;
    }
    return Number(trimmed);
  };
  const duration = (path: string, fields: DurationFields): TimeBasedRetention | undefined => {
    const days = number(`${path}.days`, fields.days);
    const hours = number(`${path}.hours`, fields.hours);
    const minutes = number(`${path}.minutes`, fields.minutes);
    if (days === undefined && hours === undefined && minutes === undefined) return undefined;
    return { days: days ?? 0, hours: hours ?? 0, minutes: minutes ?? 0 };
  };

  const byRate = form.scalingType !== 'FIXED_NUM_SEGMENTS';
  const scalingPolicy: ScalingConfig = { type: form.scalingType };
  const minSegments = number('scalingPolicy.minSegments', form.minSegments);
  if (byRate) {
    const targetRate = number('scalingPolicy.targetRate', form.targetRate);
    const scaleFactor = number('scalingPolicy.scaleFactor', form.scaleFactor);
    if (targetRate !== undefined) scalingPolicy.targetRate = targetRate;
    if (scaleFactor !== undefined) scalingPolicy.scaleFactor = scaleFactor;
  }
  if (minSegments !== undefined) scalingPolicy.minSegments = minSegments;

  const body: UpdateStreamRequest = { scalingPolicy };
  if (form.retentionType !== 'NONE') {
    const retention: RetentionConfig = { type: form.retentionType };
    const value = number('retentionPolicy.value', form.retentionValue);
    const maxValue = number('retentionPolicy.maxValue', form.retentionMaxValue);
    if (value !== undefined) retention.value = value;
    if (maxValue !== undefined) retention.maxValue = maxValue;
    if (form.retentionType === 'LIMITED_DAYS') {
      const time = duration('retentionPolicy.timeBasedRetention', form.retentionTime);
      const maxTime = duration('retentionPolicy.maxTimeBasedRetention', form.retentionMaxTime);
      if (time) retention.timeBasedRetention = time;
      if (maxTime) retention.maxTimeBasedRetention = maxTime;
    }
    body.retentionPolicy = retention;
  }
  body.streamTags = form.tags.split('\n').filter((tag) => tag.replace(/\r$/, '') !== '');
  const timeout = number('timestampAggregationTimeout', form.timestampAggregationTimeout);
  const rollover = number('rolloverSizeBytes', form.rolloverSizeBytes);
  if (timeout !== undefined) body.timestampAggregationTimeout = timeout;
  if (rollover !== undefined) body.rolloverSizeBytes = rollover;
  return Object.keys(problems).length ? { problems } : { body };
}

/** The body of create: a name and the configuration. */
export function createStreamRequest(
  streamName: string,
  form: StreamConfigForm,
): { body: CreateStreamRequest } | { problems: FormProblems } {
  const read = streamConfiguration(form);
  return 'body' in read ? { body: { streamName, ...read.body } } : read;
}
