import { useId, type ReactNode } from 'react';

/** What a form field's control carries so that its label, hint and problem are tied to it. */
export interface FieldControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/** A labelled field with its hint and problem under it, tied to the control (aria-describedby). */
export function FormField({
  label,
  hint,
  problem,
  children,
}: {
  label: string;
  hint?: string;
  /** Shown under the control as given; the control is marked invalid while there is one. */
  problem: string | undefined;
  children: (props: FieldControlProps) => ReactNode;
}) {
  const id = useId();
  const described = [hint ? `${id}-hint` : null, problem ? `${id}-problem` : null]
    .filter(Boolean)
    .join(' ');
  return (
    <div className="form-field">
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      {children({
        id,
        'aria-invalid': problem ? true : undefined,
        'aria-describedby': described || undefined,
      })}
      {hint ? (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      ) : null}
      {problem ? (
        <p id={`${id}-problem`} className="field-problem">
          {problem}
        </p>
      ) : null}
    </div>
  );
}

/** A form's submit button (off while saving) and further buttons, then a problem of the whole form. */
export function FormActions({
  submitLabel,
  pending,
  formProblem,
  children,
}: {
  submitLabel: string;
  pending: boolean;
  formProblem: string | null;
  children?: ReactNode;
}) {
  return (
    <>
      <div className="form-actions">
        <button type="submit" disabled={pending}>
          {submitLabel}
        </button>
        {children}
      </div>
      {formProblem ? (
        <p role="alert" className="field-problem">
          {formProblem}
        </p>
      ) : null}
    </>
  );
}
