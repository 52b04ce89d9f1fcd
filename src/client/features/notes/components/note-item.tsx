import { useState, type FormEvent } from 'react';
import type { CountryNote } from '../../../../shared/notes-api';
import { formatUtcDateTime } from '../../../lib/format';
import { useDeleteNote, useEditNote } from '../api/note-queries';
import { NoteTextField } from './note-text-field';
import { t } from '../../../lib/i18n';
import { personName } from '../../../lib/person-name';

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
          {/* Our people's own words, as they wrote them. */}
          <p className="note-text" translate="no">
            {note.text}
          </p>
          <p className="muted" translate="no">
            {personName(note.author, true)}, {formatUtcDateTime(note.updated_at)}
          </p>
        </>
      )}
      {canWrite && mode === 'show' ? (
        <div className="note-actions">
          <button type="button" onClick={() => setMode('edit')}>
            {t('notes.edit')}
            <span className="visually-hidden">
              {t('notes.ofAuthor', { author: personName(note.author) })}
            </span>
          </button>
          <button type="button" onClick={() => setMode('delete')}>
            {t('notes.delete')}
            <span className="visually-hidden">
              {t('notes.ofAuthor', { author: personName(note.author) })}
            </span>
          </button>
        </div>
      ) : null}
      {canWrite && mode === 'delete' ? (
        <div className="note-actions" role="group" aria-label={t('notes.deleteQuestion')}>
          <span>{t('notes.deleteQuestion')}</span>
          <button type="button" disabled={remove.isPending} onClick={() => remove.mutate(note)}>
            {t('notes.yesDelete')}
          </button>
          <button type="button" onClick={() => setMode('show')}>
            {t('notes.keep')}
          </button>
        </div>
      ) : null}
      {remove.isError ? (
        <p role="alert" className="form-error">
          {problemOf(remove.error, t('notes.notDeleted'))}
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
        label={t('notes.editNote')}
        value={text}
        onChange={setText}
        error={edit.error}
        failed={t('notes.notSaved')}
      />
      <div className="note-actions">
        <button type="submit" disabled={edit.isPending || text.trim() === ''}>
          {t('notes.save')}
        </button>
        <button type="button" onClick={onDone}>
          {t('notes.cancel')}
        </button>
      </div>
    </form>
  );
}
