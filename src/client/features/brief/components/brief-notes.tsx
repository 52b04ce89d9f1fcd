import { useQuery } from '@tanstack/react-query';
import { formatUtcDateTime } from '../../../lib/format';
import { bffQueries } from '../../../lib/bff-queries';

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
      <h3>Our notes</h3>
      {notes.isError ? <p role="alert">{notes.error.message}</p> : null}
      {shown.length === 0 ? (
        <p className="empty">None.</p>
      ) : (
        <ul>
          {shown.map((note) => (
            <li key={note.id}>
              <span className="note-text">{note.text}</span>{' '}
              <span className="muted">
                ({note.author}, {formatUtcDateTime(note.updated_at)})
              </span>
            </li>
          ))}
        </ul>
      )}
      {all.length > shown.length ? (
        <p className="muted">and {all.length - shown.length} more on the country&rsquo;s page</p>
      ) : null}
    </div>
  );
}
