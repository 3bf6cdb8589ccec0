import { useEffect, useRef, useState } from 'preact/hooks';
import type { ScaleStreamResult } from '../api/types';
import { ScaleDialog, ScaleSubject } from './scale-dialog';
import { outcomeText } from './scale-outcome';
import { selectionSummary } from './scale-plan';

/**
 * Scaling by hand from the map: what is selected (announced as it changes), "Clear selection",
 * and "Scale", which opens the dialog for the selection; once the stream scaled, what it did.
 */
export function ScaleControls({
  subject,
  cannotScale,
  note,
  onClear,
  onScaled,
  onStale,
}: {
  subject: ScaleSubject;
  /** Why the stream cannot scale (sealed, internal), if it cannot. */
  cannotScale?: string;
  /** Said instead of the selection, when the last attempt to select did nothing. */
  note?: string;
  onClear: () => void;
  onScaled: () => void;
  onStale: () => void;
}) {
  const { current, selected } = subject;
  // Each opening is its own dialog (a new key): the native dialog's close event arrives after
  // Escape as a task of its own, and a Scale pressed before it must open a dialog that this
  // late event then leaves alone.
  const [opening, setOpening] = useState(0);
  const openings = useRef(0);
  const [done, setDone] = useState<string>();
  // What the scale did takes the focus, so that it is read out (the button that opened the
  // dialog is disabled by then: nothing is selected any more).
  const outcome = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (done) outcome.current?.focus();
  }, [done]);
  const scaled = (result: ScaleStreamResult) => {
    setDone(outcomeText(result, { dryRun: false }));
    onScaled();
  };
  // An open dialog stays open when the stream turns out to be sealed: it says so.
  const dialog = opening > 0 && (
    <ScaleDialog
      key={opening}
      subject={subject}
      onClose={() => setOpening((shown) => (shown === opening ? 0 : shown))}
      onScaled={scaled}
      onStale={onStale}
    />
  );
  return (
    <div class="scale-bar">
      {cannotScale ? (
        <p class="hint">{cannotScale}</p>
      ) : (
        <>
          <div class="actions">
            <p class="selection" aria-live="polite" aria-atomic="true">
              {note ?? selectionSummary(current, selected)}
            </p>
            <button type="button" disabled={selected.size === 0} onClick={onClear}>
              Clear selection
            </button>
            <button
              type="button"
              disabled={selected.size === 0}
              onClick={() => {
                setDone(undefined);
                openings.current += 1;
                setOpening(openings.current);
              }}
            >
              Scale
            </button>
          </div>
          <p class="hint">
            To split or merge segments, select active ones: click them on the map, or focus the map,
            move with the arrow keys and press Space. Selected segments are hatched.
          </p>
          {done && (
            <p class="done" role="status" tabIndex={-1} ref={outcome}>
              {done}
            </p>
          )}
        </>
      )}
      {dialog}
    </div>
  );
}
