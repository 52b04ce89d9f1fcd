import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { QueryError } from '../../../components/query-error';
import { Skeleton } from '../../../components/skeleton';
import { formatUtcDateTime } from '../../../lib/format';
import { useCan } from '../../../lib/me-queries';
import { noteQueries, useWriteNote } from '../api/note-queries';
import { NoteItem } from './note-item';
import { NoteTextField } from './note-text-field';

/**
 * The team's notes on a country (issue 31), the most recently written first; as of a past batch
 * they are shown as they were then, and none is written, edited or deleted there. Plain text:
 * React escapes it, line breaks are kept by CSS. Viewers read; editors write, edit and delete.
 */
export function NotesPanel({ iso, asOf }: { iso: string; asOf: string | null }) {
  const query = useQuery(noteQueries.country(iso, asOf));
  const canWrite = useCan('editor') && asOf === null;
  return (
    <section className="panel notes-panel" aria-labelledby="notes-heading">
      <h2 id="notes-heading">Our notes</h2>
      {asOf ? <p className="panel-sub">As they were on {formatUtcDateTime(asOf)}.</p> : null}
      {query.isPending ? (
        <Skeleton label="Loading the notes" lines={2} />
      ) : query.isError && !query.data ? (
        <QueryError what="The notes" error={query.error} onRetry={() => void query.refetch()} />
      ) : query.data.data.notes.length === 0 ? (
        <p className="muted">No notes on {iso}.</p>
      ) : (
        <ol className="notes-list">
          {query.data.data.notes.map((note) => (
            <NoteItem key={note.id} iso={iso} note={note} canWrite={canWrite} />
          ))}
        </ol>
      )}
      {canWrite ? <NoteForm iso={iso} /> : null}
    </section>
  );
}

function NoteForm({ iso }: { iso: string }) {
  const [text, setText] = useState('');
  const write = useWriteNote(iso);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    write.mutate(text, { onSuccess: () => setText('') });
  };
  return (
    <form className="note-form" onSubmit={submit}>
      <NoteTextField
        label="New note"
        value={text}
        onChange={setText}
        error={write.error}
        failed="The note was not saved"
      />
      <button type="submit" disabled={write.isPending || text.trim() === ''}>
        Add note
      </button>
    </form>
  );
}
