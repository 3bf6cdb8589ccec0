import { FieldGroup, SelectField, TextAreaField, TextField } from '../components/field';
import { StreamRules, withRule } from '../scopes/policy-words';
import { DurationFields, RETENTION_TYPES, SCALING_TYPES, StreamConfigForm } from './stream-config';

interface Props {
  form: StreamConfigForm;
  onChange: (form: StreamConfigForm) => void;
  /** Each field's message (the form's own, or the API's 400), by its path in the request. */
  errors: Record<string, string>;
  /** The scope's rules for a stream in words, each said under the field it judges. */
  rules?: StreamRules;
  disabled?: boolean;
}

function Duration({
  legend,
  path,
  value,
  onValue,
  errors,
  disabled,
}: {
  legend: string;
  path: string;
  value: DurationFields;
  onValue: (value: DurationFields) => void;
  errors: Record<string, string>;
  disabled?: boolean;
}) {
  const part = (name: keyof DurationFields, label: string) => (
    <TextField
      label={label}
      inputMode="numeric"
      value={value[name]}
      onValue={(text) => onValue({ ...value, [name]: text })}
      error={errors[`${path}.${name}`]}
      disabled={disabled}
    />
  );
  return (
    <FieldGroup legend={legend}>
      <div class="row">
        {part('days', 'Days')}
        {part('hours', 'Hours')}
        {part('minutes', 'Minutes')}
      </div>
    </FieldGroup>
  );
}

/**
 * A policy's type: its error is the API's message for the type, else for the whole policy (a
 * policy missing or not an object).
 */
function PolicyType<T extends string>({
  label,
  path,
  value,
  onValue,
  options,
  errors,
  hint,
  disabled,
}: {
  label: string;
  path: string;
  value: T;
  onValue: (value: T) => void;
  options: readonly { value: T; label: string }[];
  errors: Record<string, string>;
  hint?: string;
  disabled?: boolean;
}) {
  return (
    <SelectField
      label={label}
      value={value}
      // The options are the only values the select can give.
      onValue={(chosen) => onValue(chosen as T)}
      options={options}
      error={errors[`${path}.type`] ?? errors[path]}
      hint={hint}
      disabled={disabled}
    />
  );
}

/**
 * Every field of a stream's configuration (`CreateStreamRequest` but the name), each with the
 * message the API gave for it. Fields that do not apply to the chosen policies are hidden.
 */
export function StreamConfigFields({ form, onChange, errors, rules = {}, disabled }: Props) {
  const set =
    <K extends keyof StreamConfigForm>(key: K) =>
    (value: StreamConfigForm[K]) =>
      onChange({ ...form, [key]: value });
  const byRate = form.scalingType !== 'FIXED_NUM_SEGMENTS';
  const retained = form.retentionType !== 'NONE';
  const unit = form.retentionType === 'LIMITED_SIZE_MB' ? 'MiB' : 'days';
  const advanced = [
    'timestampAggregationTimeout',
    'rolloverSizeBytes',
    'retentionPolicy.timeBasedRetention',
    'retentionPolicy.maxTimeBasedRetention',
  ].some((prefix) => Object.keys(errors).some((path) => path.startsWith(prefix)));
  return (
    <>
      <FieldGroup legend="Scaling policy">
        <PolicyType
          label="Scaling"
          path="scalingPolicy"
          value={form.scalingType}
          onValue={set('scalingType')}
          options={SCALING_TYPES}
          errors={errors}
          hint={rules.scalingTypes}
          disabled={disabled}
        />
        <TextField
          label={byRate ? 'Minimum segments' : 'Segments'}
          inputMode="numeric"
          value={form.minSegments}
          onValue={set('minSegments')}
          error={errors['scalingPolicy.minSegments']}
          disabled={disabled}
        />
        {byRate && (
          <>
            <TextField
              label="Target rate per segment"
              inputMode="numeric"
              value={form.targetRate}
              onValue={set('targetRate')}
              error={errors['scalingPolicy.targetRate']}
              disabled={disabled}
            />
            <TextField
              label="Scale factor"
              inputMode="numeric"
              value={form.scaleFactor}
              onValue={set('scaleFactor')}
              error={errors['scalingPolicy.scaleFactor']}
              disabled={disabled}
            />
          </>
        )}
      </FieldGroup>
      <FieldGroup legend="Retention policy">
        <PolicyType
          label="Retention"
          path="retentionPolicy"
          value={form.retentionType}
          onValue={set('retentionType')}
          options={RETENTION_TYPES}
          errors={errors}
          hint={rules.retention}
          disabled={disabled}
        />
        {retained && (
          <div class="row">
            <TextField
              label={`Minimum (${unit})`}
              inputMode="numeric"
              value={form.retentionValue}
              onValue={set('retentionValue')}
              error={errors['retentionPolicy.value']}
              disabled={disabled}
            />
            <TextField
              label={`Maximum (${unit})`}
              inputMode="numeric"
              value={form.retentionMaxValue}
              onValue={set('retentionMaxValue')}
              error={errors['retentionPolicy.maxValue']}
              hint="Optional"
              disabled={disabled}
            />
          </div>
        )}
      </FieldGroup>
      <TextAreaField
        label="Tags"
        rows={2}
        value={form.tags}
        onValue={set('tags')}
        error={errors.streamTags}
        hint={withRule('One per line', rules.requiredTags)}
        disabled={disabled}
      />
      <details open={advanced || undefined}>
        <summary>More settings</summary>
        {form.retentionType === 'LIMITED_DAYS' && (
          <>
            <Duration
              legend="Minimum retention in days, hours and minutes (with minimum 0)"
              path="retentionPolicy.timeBasedRetention"
              value={form.retentionTime}
              onValue={set('retentionTime')}
              errors={errors}
              disabled={disabled}
            />
            <Duration
              legend="Maximum retention in days, hours and minutes (with maximum 0)"
              path="retentionPolicy.maxTimeBasedRetention"
              value={form.retentionMaxTime}
              onValue={set('retentionMaxTime')}
              errors={errors}
              disabled={disabled}
            />
          </>
        )}
        <div class="row">
          <TextField
            label="Timestamp aggregation timeout (ms)"
            inputMode="numeric"
            value={form.timestampAggregationTimeout}
            onValue={set('timestampAggregationTimeout')}
            error={errors.timestampAggregationTimeout}
            hint="Empty: the server's default"
            disabled={disabled}
          />
          <TextField
            label="Rollover size (bytes)"
            inputMode="numeric"
            value={form.rolloverSizeBytes}
            onValue={set('rolloverSizeBytes')}
            error={errors.rolloverSizeBytes}
            hint="Empty: the server's default"
            disabled={disabled}
          />
        </div>
      </details>
    </>
  );
}
