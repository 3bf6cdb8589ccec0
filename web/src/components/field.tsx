import type { ComponentChildren, JSX } from 'preact';
import { useId } from 'preact/hooks';

interface FieldProps {
  label: string;
  /** The API's message for this field (from a 400), shown next to it. */
  error?: string;
  hint?: string;
}

/** The ids a control needs so its label, hint and error are read with it. */
function useFieldIds(error?: string, hint?: string) {
  const id = useId();
  const describedBy = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ');
  return { id, describedBy: describedBy || undefined };
}

function Notes({ id, error, hint }: { id: string; error?: string; hint?: string }) {
  return (
    <>
      {hint && (
        <span class="hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
      {error && (
        <span class="field-error" id={`${id}-error`}>
          {error}
        </span>
      )}
    </>
  );
}

/** What every control is given so its label, hint and error are read with it. */
interface ControlAttributes {
  id: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

/** A labelled control, its hint and its error: the frame every field shares. */
function LabelledField({
  label,
  error,
  hint,
  control,
}: FieldProps & { control: (attributes: ControlAttributes) => JSX.Element }) {
  const { id, describedBy } = useFieldIds(error, hint);
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {control({
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': describedBy,
      })}
      <Notes id={id} error={error} hint={hint} />
    </div>
  );
}

/** What an input may be told besides its value: kept to what the forms use. */
interface InputOptions {
  type?: 'text' | 'search' | 'password' | 'datetime-local';
  inputMode?: 'numeric' | 'text';
  autocomplete?: string;
  required?: boolean;
  disabled?: boolean;
  step?: number;
}

type InputProps = FieldProps &
  InputOptions & {
    value: string;
    onValue: (value: string) => void;
  };

/** A labelled text (or number, date) input with its hint and error. */
export function TextField({ label, error, hint, value, onValue, ...input }: InputProps) {
  return (
    <LabelledField
      label={label}
      error={error}
      hint={hint}
      control={(attributes) => (
        <input
          // Preact types each input type's attributes apart; this field is one of several types.
          {...(input as { type?: 'text' })}
          {...attributes}
          value={value}
          onInput={(event) => onValue(event.currentTarget.value)}
        />
      )}
    />
  );
}

type TextAreaProps = FieldProps & {
  value: string;
  onValue: (value: string) => void;
  rows?: number;
  disabled?: boolean;
  spellcheck?: boolean;
};

/** A labelled text area (a document, one item per line) with its hint and error. */
export function TextAreaField({ label, error, hint, value, onValue, ...area }: TextAreaProps) {
  return (
    <LabelledField
      label={label}
      error={error}
      hint={hint}
      control={(attributes) => (
        <textarea
          {...area}
          {...attributes}
          value={value}
          onInput={(event) => onValue(event.currentTarget.value)}
        />
      )}
    />
  );
}

type SelectProps = FieldProps & {
  value: string;
  onValue: (value: string) => void;
  options: readonly { value: string; label: string }[];
  disabled?: boolean;
};

export function SelectField({
  label,
  error,
  hint,
  value,
  onValue,
  options,
  disabled,
}: SelectProps) {
  return (
    <LabelledField
      label={label}
      error={error}
      hint={hint}
      control={(attributes) => (
        <select
          {...attributes}
          value={value}
          disabled={disabled}
          onChange={(event) => onValue(event.currentTarget.value)}
        >
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    />
  );
}

export function CheckboxField({
  label,
  checked,
  onChecked,
  disabled,
}: {
  label: string;
  checked: boolean;
  onChecked: (checked: boolean) => void;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div class="field checkbox">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(event) => onChecked(event.currentTarget.checked)}
      />
      <label for={id}>{label}</label>
    </div>
  );
}

/** A group of fields under a legend, with the API's message for the group as a whole. */
export function FieldGroup({
  legend,
  error,
  children,
}: {
  legend: string;
  error?: string;
  children: ComponentChildren;
}) {
  const id = useId();
  return (
    <fieldset aria-describedby={error ? `${id}-error` : undefined}>
      <legend>{legend}</legend>
      {children}
      {error && (
        <span class="field-error" id={`${id}-error`}>
          {error}
        </span>
      )}
    </fieldset>
  );
}
