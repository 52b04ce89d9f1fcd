import { useState, type FormEvent } from 'react';
import type { CountryNote } from '../../../../shared/notes-api';
import { formatUtcDateTime } from '../../../lib/format';
import { useDeleteNote, useEditNote } from '../api/note-queries';
import { NoteTextField } from './note-text-field';

const problemOf = (error: unknown, otherwise: string): string =>
  error instanceof Error ? error.message : otherwise;

/**
 * One note: its text, author and time; an editor (on the latest batch) edits or deletes it in
 * place. Both name the version shown, so someone else's edit first is said, not overwritten;
 * a deletion asks once more before it is sent. The server keeps every revision and logs each
 * change in the audit log.
 */
export function NoteItem({
  iso,
  note,
  canWrite,
}: {
  iso: string;
  note: CountryNote;
  canWrite: boolean;
}) {
  const [mode, setMode] = useState<'show' | 'edit' | 'delete'>('show');
  const remove = useDeleteNote(iso);
  return (
    <li>
      {mode === 'edit' ? (
        <NoteEditor iso={iso} note={note} onDone={() => setMode('show')} />
      ) : (
        <>
          <p className="note-text">{note.text}</p>
          <p className="muted">
            {note.author}, {formatUtcDateTime(note.updated_at)}
          </p>
        </>
      )}
      {canWrite && mode === 'show' ? (
        <div className="note-actions">
          <button type="button" onClick={() => setMode('edit')}>
            Edit<span className="visually-hidden"> the note of {note.author}</span>
          </button>
          <button type="button" onClick={() => setMode('delete')}>
            Delete<span className="visually-hidden"> the note of {note.author}</span>
          </button>
        </div>
      ) : null}
      {canWrite && mode === 'delete' ? (
        <div className="note-actions" role="group" aria-label="Delete this note?">
          <span>Delete this note?</span>
          <button type="button" disabled={remove.isPending} onClick={() => remove.mutate(note)}>
            Yes, delete it
          </button>
          <button type="button" onClick={() => setMode('show')}>
            Keep it
          </button>
        </div>
      ) : null}
      {remove.isError ? (
        <p role="alert" className="form-error">
          {problemOf(remove.error, 'The note was not deleted')}
        </p>
      ) : null}
    </li>
  );
}

function NoteEditor({ iso, note, onDone }: { iso: string; note: CountryNote; onDone: () => void }) {
  const [text, setText] = useState(note.text);
  const edit = useEditNote(iso);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    edit.mutate({ note, text }, { onSuccess: onDone });
  };
  return (
    <form className="note-form" onSubmit={submit}>
      <NoteTextField
        label="Edit the note"
        value={text}
        onChange={setText}
        error={edit.error}
        failed="The note was not saved"
      />
      <div className="note-actions">
        <button type="submit" disabled={edit.isPending || text.trim() === ''}>
          Save
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
