import { useState } from 'preact/hooks';
import { ApiError } from '../api/api-error';
import { answer, api } from '../api/client';
import type { ApplyResult } from '../api/types';
import { ErrorMessage } from '../components/error-message';
import { TextAreaField } from '../components/field';
import { Screen } from '../components/screen';
import { useAction } from '../state/use-action';
import { documentMediaType } from './apply-document';
import { PlanTable, PolicyViolations } from './plan-table';

/**
 * Sends the document as it was typed or uploaded, JSON or YAML: the API parses and judges it.
 * (Its typed body is the parsed document; this sends the text itself.)
 */
function send(text: string, dryRun: boolean, planVersion?: string) {
  return answer(
    api.POST('/v1/apply', {
      params: {
        query: dryRun ? { dryRun: true } : {},
        header: planVersion ? { 'If-Match': planVersion } : undefined,
      },
      body: text as never,
      bodySerializer: (body: unknown) => body as string,
      headers: { 'Content-Type': documentMediaType(text) },
    }),
  );
}

/**
 * Paste or upload a document, see its plan as a diff (a dry run), then apply exactly that plan:
 * its version goes as `If-Match`, so nothing is applied if anything it read changed since.
 */
export function ApplyScreen() {
  const [text, setText] = useState('');
  const [plan, setPlan] = useState<{ text: string; result: ApplyResult }>();
  const [applied, setApplied] = useState<ApplyResult>();
  const action = useAction();
  const upload = async (event: Event) => {
    const file = (event.currentTarget as HTMLInputElement).files?.[0];
    if (file) setText(await file.text());
  };
  const planIt = async () => {
    setApplied(undefined);
    setPlan(undefined);
    await action.run(async () => {
      const { data } = await send(text, true);
      setPlan({ text, result: data });
    });
  };
  const applyIt = async () => {
    if (!plan) return;
    await action.run(async () => {
      try {
        const { data } = await send(plan.text, false, plan.result.planVersion);
        setApplied(data);
        setPlan(undefined);
      } catch (error) {
        if (error instanceof ApiError && error.code === 'PRECONDITION_FAILED') setPlan(undefined);
        throw error;
      }
    });
  };
  const stale = plan !== undefined && plan.text !== text;
  // A plan that breaks a policy would be refused (422): it is shown, not offered.
  const refused = (plan?.result.violations?.length ?? 0) > 0;
  const fieldErrors = action.error?.problem?.errors ?? [];
  const conflict = action.error?.code === 'PRECONDITION_FAILED';
  return (
    <Screen title="Apply">
      <form
        class="apply"
        onSubmit={(event) => {
          event.preventDefault();
          void planIt();
        }}
      >
        <TextAreaField
          label="Document"
          rows={14}
          spellcheck={false}
          value={text}
          onValue={setText}
          hint="YAML or JSON: scopes with their streams and reader groups (the CLI's export writes one)"
        />
        <div class="field">
          <label for="apply-file">Upload a document</label>
          <input
            id="apply-file"
            type="file"
            accept=".yaml,.yml,.json,application/json,application/yaml"
            onChange={(event) => void upload(event)}
          />
        </div>
        <div class="actions">
          <button type="submit" disabled={action.busy || !text.trim()}>
            Plan
          </button>
          <button
            type="button"
            disabled={action.busy || !plan || stale || refused}
            onClick={() => void applyIt()}
          >
            Apply
          </button>
        </div>
      </form>
      {conflict ? (
        <p class="error" role="alert">
          Something the plan read has changed since: nothing was applied. Plan again to see the
          changes as they are now.
        </p>
      ) : (
        <ErrorMessage error={action.error} />
      )}
      {fieldErrors.length > 0 && (
        <ul class="errors" aria-label="Invalid parts of the document">
          {fieldErrors.map(({ field, message }) => (
            <li key={field}>
              <code>{field}</code>: {message}
            </li>
          ))}
        </ul>
      )}
      <PolicyViolations violations={action.error?.problem?.violations} />
      {refused && (
        <>
          <p class="notice">
            The document breaks rules of scope policies: it cannot be applied until it complies.
          </p>
          <PolicyViolations violations={plan?.result.violations} />
        </>
      )}
      {stale && (
        <p class="notice">The document changed since the plan: plan it again to apply it.</p>
      )}
      {plan && <PlanTable result={plan.result} heading="Changes" />}
      {applied && (
        <>
          <p role="status" class="done">
            Applied: {applied.summary.create} created, {applied.summary.update} updated,{' '}
            {applied.summary.delete} deleted, {applied.summary.unchanged} unchanged.
          </p>
          <PlanTable result={applied} heading="Changes" />
        </>
      )}
    </Screen>
  );
}
