import { useState } from 'preact/hooks';
import { ApiError } from '../api/api-error';
import { answer, api } from '../api/client';
import type { ScopePolicy } from '../api/types';
import { ErrorMessage } from '../components/error-message';
import { CheckboxField, FieldGroup, TextAreaField, TextField } from '../components/field';
import { FormSection } from '../components/screen';
import { useAction } from '../state/use-action';
import { SCALING_TYPES } from '../streams/stream-config';
import { PolicyForm, policyForm, policyRequest } from './policy-form';

/**
 * The scope's whole policy as a form, a field per rule; "Save policy" replaces it (`PUT`, with
 * `If-Match` of the entity tag it was read with). A 400's invalid paths show next to their
 * fields; a 412 says someone else changed the policy and has it read again (`onStale`), keeping
 * what was typed, which the next Save sends against the policy now shown.
 */
export function PolicyEditForm({
  scope,
  policy,
  etag,
  onSaved,
  onStale,
  onCancel,
}: {
  scope: string;
  policy: ScopePolicy;
  etag?: string;
  onSaved: () => void;
  onStale: () => void;
  onCancel: () => void;
}) {
  const [form, setForm] = useState<PolicyForm>(() => policyForm(policy));
  const [problems, setProblems] = useState<Record<string, string>>({});
  const action = useAction();
  const set =
    <K extends keyof PolicyForm>(key: K) =>
    (value: PolicyForm[K]) =>
      setForm({ ...form, [key]: value });

  const save = async (event: Event) => {
    event.preventDefault();
    const read = policyRequest(form);
    setProblems('problems' in read ? read.problems : {});
    if (!('body' in read)) return;
    const done = await action.run(async () => {
      try {
        await answer(
          api.PUT('/v1/scopes/{scopeName}/policy', {
            params: {
              path: { scopeName: scope },
              header: etag ? { 'If-Match': etag } : undefined,
            },
            body: read.body,
          }),
        );
      } catch (error) {
        if (error instanceof ApiError && error.code === 'PRECONDITION_FAILED') onStale();
        throw error;
      }
    });
    if (done) onSaved();
  };

  const errors = { ...action.error?.fields, ...problems };
  const conflict = action.error?.code === 'PRECONDITION_FAILED';
  const unplaced = action.error && !conflict && Object.keys(action.error.fields).length === 0;
  const scaling = (type: (typeof SCALING_TYPES)[number]['value']) => (checked: boolean) =>
    set('scalingTypes')(
      checked
        ? SCALING_TYPES.map((known) => known.value).filter(
            (known) => known === type || form.scalingTypes.includes(known),
          )
        : form.scalingTypes.filter((chosen) => chosen !== type),
    );
  const count = (
    key: 'maxStreams' | 'maxSegmentsPerStream' | 'maxActiveSegments',
    label: string,
  ) => (
    <TextField
      label={label}
      inputMode="numeric"
      value={form[key]}
      onValue={set(key)}
      error={errors[key]}
      hint="Empty: no limit"
    />
  );
  return (
    <FormSection title="Edit policy" id="edit-policy-heading" onSubmit={save}>
      <p class="hint">
        An empty field sets no rule. The policy judges changes from now on: streams that break it
        now stay as they are.
      </p>
      <TextField label="Owner" value={form.owner} onValue={set('owner')} error={errors.owner} />
      <TextAreaField
        label="Description"
        rows={2}
        value={form.description}
        onValue={set('description')}
        error={errors.description}
      />
      <FieldGroup legend="Limits">
        <div class="row">
          {count('maxStreams', 'Most streams')}
          {count('maxSegmentsPerStream', 'Most active segments per stream')}
          {count('maxActiveSegments', 'Most active segments in the scope')}
        </div>
      </FieldGroup>
      <FieldGroup legend="Rules for streams">
        <TextAreaField
          label="Stream name patterns"
          rows={2}
          value={form.streamNames}
          onValue={set('streamNames')}
          error={errors.streamNames}
          hint="Separated by commas or lines; * any characters, ? one character"
        />
        <FieldGroup legend="Allowed scaling types (none ticked: any)" error={errors.scalingTypes}>
          {SCALING_TYPES.map((type) => (
            <CheckboxField
              key={type.value}
              label={type.label}
              checked={form.scalingTypes.includes(type.value)}
              onChecked={scaling(type.value)}
            />
          ))}
        </FieldGroup>
        <CheckboxField
          label="Every stream must have a retention policy"
          checked={form.retentionRequired}
          onChecked={set('retentionRequired')}
        />
        <div class="row">
          <TextField
            label="Most days of retention"
            inputMode="numeric"
            value={form.retentionMaxDays}
            onValue={set('retentionMaxDays')}
            error={errors['retention.maxDays'] ?? errors.retention}
            hint="Empty: no limit"
          />
          <TextField
            label="Most MB of retention"
            inputMode="numeric"
            value={form.retentionMaxSizeMb}
            onValue={set('retentionMaxSizeMb')}
            error={errors['retention.maxSizeMb']}
            hint="Empty: no limit"
          />
        </div>
        <TextAreaField
          label="Required tag patterns"
          rows={2}
          value={form.requiredTags}
          onValue={set('requiredTags')}
          error={errors.requiredTags}
          hint="One per line; each stream needs a tag matching each"
        />
      </FieldGroup>
      {conflict && (
        <div class="error" role="alert">
          <p>
            Someone else changed the policy since you opened it: nothing was saved. The policy shown
            above is now the current one; Save policy again to replace it with yours.
          </p>
          <button type="button" onClick={() => setForm(policyForm(policy))}>
            Use the current policy
          </button>
        </div>
      )}
      {unplaced && <ErrorMessage error={action.error} />}
      {action.error && !conflict && !unplaced && (
        <p class="error" role="alert">
          The service refused some fields: see the messages next to them.
        </p>
      )}
      <div class="actions">
        <button type="submit" disabled={action.busy}>
          Save policy
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </FormSection>
  );
}
