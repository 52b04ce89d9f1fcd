import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { QueryError } from '../../../components/query-error';
import { Skeleton } from '../../../components/skeleton';
import { formatUtcDateTime } from '../../../lib/format';
import { useCan } from '../../../lib/me-queries';
import { noteQueries, useWriteNote } from '../api/note-queries';
import { NoteItem } from './note-item';
import { NoteTextField } from './note-text-field';
import { t } from '../../../lib/i18n';

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
      <h2 id="notes-heading">{t('notes.heading')}</h2>
      {asOf ? (
        <p className="panel-sub">{t('notes.asOf', { date: formatUtcDateTime(asOf) })}</p>
      ) : null}
      {query.isPending ? (
        <Skeleton label={t('notes.loading')} lines={2} />
      ) : query.isError && !query.data ? (
        <QueryError
          what={t('notes.error')}
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      ) : query.data.data.notes.length === 0 ? (
        <p className="muted">{t('notes.none', { iso })}</p>
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
        label={t('notes.newNote')}
        value={text}
        onChange={setText}
        error={write.error}
        failed={t('notes.notSaved')}
      />
      <button type="submit" disabled={write.isPending || text.trim() === ''}>
        {t('notes.add')}
      </button>
    </form>
  );
}
