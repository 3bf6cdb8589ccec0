import { useEffect, useRef, useState } from 'preact/hooks';
import { answer, api } from '../api/client';
import type { ScaleStreamResult, Segment } from '../api/types';
import { placeViolations, SCALE_PLACES } from '../api/policy-violations';
import { TextField } from '../components/field';
import { Loading } from '../components/screen';
import { useAction } from '../state/use-action';
import { useResource } from '../state/use-resource';
import { ScalePreview } from './scale-preview';
import { firstChoice, ScaleChoice, scalePlan, selectionSummary } from './scale-plan';
import { scaleRefusal, showsStaleStream } from './scale-refusal';

type Kind = ScaleChoice['kind'];

/** What a scale starts from: the stream, its active segments and entity tag, the selection. */
export interface ScaleSubject {
  scope: string;
  stream: string;
  /** The active segments, as the API answered them. */
  current: Segment[];
  /** The stream's entity tag, read with `current`. */
  etag?: string;
  selected: ReadonlySet<number>;
}

/**
 * The scale of the selected segments, in a modal dialog: split each into N equal parts or merge
 * neighbours into one; the resulting map as the API's dry run answers it; then "Scale", which
 * sends `If-Match` with the entity tag the segments were read with, so that it happens only on
 * the stream the map shows. A refusal is said in words; when it means the stream changed,
 * `onStale` has the map read again (and the dry run follows it).
 */
export function ScaleDialog({
  subject,
  onClose,
  onScaled,
  onStale,
}: {
  subject: ScaleSubject;
  onClose: () => void;
  onScaled: (result: ScaleStreamResult) => void;
  onStale: () => void;
}) {
  const { scope, stream, current, etag, selected } = subject;
  const dialog = useRef<HTMLDialogElement>(null);
  const firstField = useRef<HTMLInputElement>(null);
  const [kind, setKind] = useState<Kind>(() => firstChoice(current, selected));
  const [parts, setParts] = useState('2');
  const action = useAction();
  const path = { scopeName: scope, streamName: stream };
  const header = etag ? { 'If-Match': etag } : undefined;

  useEffect(() => {
    dialog.current?.showModal();
    firstField.current?.focus();
  }, []);

  const plan = scalePlan(current, selected, kind === 'split' ? { kind, parts } : { kind });
  const request = 'request' in plan ? plan.request : undefined;
  const dryRunKey = request ? JSON.stringify([etag, request]) : '';
  const dryRun = useResource(async (signal) => {
    if (!request) return undefined;
    const { data } = await answer(
      api.POST('/v1/scopes/{scopeName}/streams/{streamName}/scale', {
        params: { path, query: { dryRun: true }, header },
        body: request,
        signal,
      }),
    );
    return data;
  }, `${scope}/${stream}/${dryRunKey}`);

  // A dry run told the stream changed: the map is read again, and so is the dry run.
  const dryRunError = dryRun.error;
  useEffect(() => {
    if (dryRunError && showsStaleStream(dryRunError)) onStale();
  }, [dryRunError]);

  const close = () => dialog.current?.close();
  const apply = async (event: Event) => {
    event.preventDefault();
    if (!request || !dryRun.data) return;
    let result: ScaleStreamResult | undefined;
    const done = await action.run(async () => {
      ({ data: result } = await answer(
        api.POST('/v1/scopes/{scopeName}/streams/{streamName}/scale', {
          params: { path, header },
          body: request,
        }),
      ));
    });
    if (done && result) {
      onScaled(result);
      close();
    } else {
      onStale();
    }
  };

  // The scope's policy judges the dry run as it judges the scale: a limit of segments broken by
  // the parts asked for is said next to them.
  const refusal = action.error ?? dryRun.error;
  const placed = placeViolations(refusal?.problem?.violations, SCALE_PLACES);
  const partsProblem =
    'problem' in plan && plan.field === 'parts' ? plan.problem : placed.fields.parts;
  const choiceProblem = 'problem' in plan && !plan.field ? plan.problem : undefined;
  const choose = (chosen: Kind) => (
    <input
      type="radio"
      name="scale-kind"
      value={chosen}
      checked={kind === chosen}
      ref={kind === chosen ? firstField : undefined}
      onChange={() => setKind(chosen)}
    />
  );
  return (
    <dialog ref={dialog} aria-labelledby="scale-heading" class="scale-dialog" onClose={onClose}>
      <form onSubmit={(event) => void apply(event)} noValidate>
        <h2 id="scale-heading">Scale {stream}</h2>
        <p>{selectionSummary(current, selected)}</p>
        <fieldset>
          <legend>Change</legend>
          <label class="choice">{choose('split')} Split each into equal parts</label>
          <label class="choice">{choose('merge')} Merge into one segment (neighbours only)</label>
        </fieldset>
        {kind === 'split' && (
          <TextField
            label="Parts per segment"
            inputMode="numeric"
            value={parts}
            onValue={setParts}
            error={partsProblem}
            hint="Each selected segment is cut into this many equal key ranges."
          />
        )}
        {choiceProblem && (
          <p class="error" role="alert">
            {choiceProblem}
          </p>
        )}
        <section aria-labelledby="scale-preview-heading">
          <h3 id="scale-preview-heading">Preview</h3>
          <p class="hint">The API's dry run: nothing changes until you Scale.</p>
          {request && dryRun.loading && <Loading what="the preview" />}
          {dryRun.error && (
            <p class="error" role="alert">
              {scaleRefusal(dryRun.error, { dryRun: true })}
            </p>
          )}
          {dryRun.data && <ScalePreview before={current} result={dryRun.data} />}
        </section>
        {action.error && (
          <p class="error" role="alert">
            {scaleRefusal(action.error, { dryRun: false })}
          </p>
        )}
        <div class="actions">
          <button type="submit" disabled={!dryRun.data || action.busy}>
            Scale
          </button>
          <button type="button" onClick={close}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}
