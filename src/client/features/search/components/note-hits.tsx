import type { CountryNote } from '../../../../shared/notes-api';
import type { ReferenceCountry } from '../../../../shared/history-api';
import { displayName } from '../../../lib/display-name';
import { formatUtcDateTime } from '../../../lib/format';
import { t } from '../../../lib/i18n';
import { personName } from '../../../lib/person-name';

/** Characters of a note shown in a result: enough to recognise it. */
const SNIPPET = 90;

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > SNIPPET ? `${flat.slice(0, SNIPPET - 1)}…` : flat;
}

/**
 * The notes matching the palette's text (issue 31), after the countries: each names its
 * country, a line of its text, its author and time; choosing one opens the country. Plain text
 * (React escapes it).
 */
export function NoteHitList({
  listId,
  optionId,
  notes,
  current,
  countries,
  onChoose,
}: {
  listId: string;
  optionId: (id: string) => string;
  notes: readonly CountryNote[];
  current: CountryNote | undefined;
  countries: readonly ReferenceCountry[] | undefined;
  onChoose: (iso: string) => void;
}) {
  if (notes.length === 0) return null;
  const nameOf = (iso: string) => {
    const name = countries?.find((c) => c.iso === iso)?.name;
    return name ? displayName(iso, name) : iso;
  };
  return (
    <ul id={listId} role="listbox" aria-label={t('palette.notes')} className="palette-list">
      {notes.map((note) => (
        <li
          key={note.id}
          id={optionId(note.id)}
          role="option"
          aria-selected={note === current}
          className={note === current ? 'palette-option is-active' : 'palette-option'}
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => onChoose(note.iso)}
        >
          <span className="palette-name">
            {t('palette.noteOn', { name: nameOf(note.iso) })}{' '}
            <span className="iso">{note.iso}</span>
          </span>
          <span className="palette-meta">
            {/* The team's own words and names, as written. */}
            <span translate="no">{snippet(note.text)}</span> ·{' '}
            <span translate="no">{personName(note.author)}</span>,{' '}
            {formatUtcDateTime(note.updated_at)}
          </span>
        </li>
      ))}
    </ul>
  );
}
