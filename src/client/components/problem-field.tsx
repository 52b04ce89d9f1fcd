import { useId } from 'react';

/**
 * A labelled text input with its problem next to it (aria-invalid, aria-describedby), as the
 * watchlist form shows them: the problem is the server's words or the form's own.
 */
export function ProblemField({
  label,
  name,
  type = 'text',
  defaultValue,
  problem,
  onEdit,
}: {
  label: string;
  name: string;
  type?: 'text' | 'url' | 'email';
  defaultValue: string;
  problem: string | undefined;
  onEdit: () => void;
}) {
  const id = useId();
  return (
    <div className="form-field">
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type={type}
        defaultValue={defaultValue}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-problem` : undefined}
        onChange={onEdit}
      />
      {problem ? (
        <p id={`${id}-problem`} className="field-problem">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
