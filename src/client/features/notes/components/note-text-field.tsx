import { useId } from 'react';
import { NOTE_TEXT_MAX } from '../../../../shared/notes-api';

/**
 * A note's text box with its label and the server's words when a write failed: the same for a
 * new note and an edit (at most NOTE_TEXT_MAX characters, line breaks kept).
 */
export function NoteTextField({
  label,
  value,
  onChange,
  error,
  failed,
}: {
  label: string;
  value: string;
  onChange: (text: string) => void;
  /** The write's error, when it failed. */
  error: unknown;
  /** What to say when the error has no words of its own. */
  failed: string;
}) {
  const id = useId();
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        value={value}
        maxLength={NOTE_TEXT_MAX}
        rows={3}
        onChange={(event) => onChange(event.target.value)}
      />
      {error ? (
        <p role="alert" className="form-error">
          {error instanceof Error ? error.message : failed}
        </p>
      ) : null}
    </>
  );
}
