import type { ComponentChildren } from 'preact';
import { useRef } from 'preact/hooks';

/**
 * A button whose action is asked for once more in a modal dialog (the keyboard's focus stays
 * inside it; Escape cancels), for what cannot be undone.
 */
export function ConfirmButton({
  label,
  question,
  onConfirm,
  disabled,
  children,
}: {
  /** The button's name, and the confirming button's. */
  label: string;
  question: string;
  onConfirm: () => void;
  disabled?: boolean;
  children?: ComponentChildren;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button
        type="button"
        class="danger"
        disabled={disabled}
        onClick={() => {
          dialog.current?.showModal();
          // The safe choice first: Enter or Space right away cancels.
          cancel.current?.focus();
        }}
      >
        {label}
      </button>
      <dialog ref={dialog} aria-label={question}>
        <form method="dialog">
          <p>{question}</p>
          {children}
          <div class="actions">
            <button type="submit" class="danger" value="confirm" onClick={onConfirm}>
              {label}
            </button>
            <button type="submit" value="cancel" ref={cancel}>
              Cancel
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
