import { useQuery } from '@tanstack/react-query';
import { formatUtcDateTime } from '../../../lib/format';
import { bffQueries } from '../../../lib/bff-queries';
import { t } from '../../../lib/i18n';
import { personName } from '../../../lib/person-name';

/** Notes a brief shows per country, newest first; the rest are counted (the page has them all). */
export const BRIEF_NOTES_SHOWN = 3;

/**
 * A country's notes in its brief block (issue 31): each note's latest text, author and time, as
 * of the batch the brief is of. Plain text: React escapes it; line breaks are kept by CSS.
 */
export function BriefNotes({ iso, asOf }: { iso: string; asOf: string | null }) {
  const notes = useQuery(bffQueries.notes(iso, asOf));
  const all = notes.data?.data.notes ?? [];
  const shown = all.slice(0, BRIEF_NOTES_SHOWN);
  return (
    <div className="brief-notes">
      <h3>{t('notes.heading')}</h3>
      {notes.isError ? <p role="alert">{notes.error.message}</p> : null}
      {shown.length === 0 ? (
        <p className="empty">{t('brief.none')}</p>
      ) : (
        <ul>
          {shown.map((note) => (
            <li key={note.id}>
              {/* The team's own words and names, as written. */}
              <span className="note-text" translate="no">
                {note.text}
              </span>{' '}
              <span className="muted">
                (<span translate="no">{personName(note.author)}</span>,{' '}
                {formatUtcDateTime(note.updated_at)})
              </span>
            </li>
          ))}
        </ul>
      )}
      {all.length > shown.length ? (
        <p className="muted">{t('brief.moreNotes', { count: all.length - shown.length })}</p>
      ) : null}
    </div>
  );
}
