import { useQuery } from '@tanstack/react-query';
import {
  useDeferredValue,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import type { ReferenceCountry } from '../../../../shared/history-api';
import { CountryOptionList, type CountryFigures } from '../../../components/country-option';
import { searchCountries } from '../../../lib/country-match';
import { displayName } from '../../../lib/display-name';
import { formatLanguage } from '../../../lib/format';
import { noteSearchQueries, noteSearchText } from '../api/note-search';
import { NoteHitList } from './note-hits';
import { t } from '../../../lib/i18n';

/**
 * "Find a country": a modal dialog with a combobox over every ISO country (names, codes, common
 * names). Arrow keys move, Enter opens, Escape closes; focus stays in the field while open and
 * the caller returns it on close. Each result shows its tier and risk; countries missing from the
 * current data are listed and say so. The team's notes whose text matches follow the countries
 * (issue 31); choosing one opens its country.
 */
export function SearchPalette({
  countries,
  loadError,
  figures,
  onPick,
  onClose,
}: {
  /** Undefined while the list loads. */
  countries: readonly ReferenceCountry[] | undefined;
  loadError: Error | null;
  /** Tier and risk of each country in the latest batch; null while unknown (nothing is marked). */
  figures: CountryFigures | null;
  onPick: (iso: string) => void;
  onClose: () => void;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const named = useMemo(() => withPageNames(countries ?? []), [countries]);
  const hits = useMemo(() => searchCountries(named, text, figures), [named, text, figures]);
  const notes = useNoteHits(text);
  const total = hits.length + notes.length;
  const at = Math.min(active, total - 1);
  const current = at < hits.length ? hits[at] : undefined;
  const currentNote = at >= hits.length ? notes[at - hits.length] : undefined;

  useEffect(() => input.current?.focus(), []);

  const onKeyDown = paletteKeys({
    total,
    setActive,
    onEnter: () => {
      const iso = current?.country.iso ?? currentNote?.iso;
      if (iso) onPick(iso);
    },
    onClose,
  });

  const optionId = (iso: string) => `${id}-option-${iso}`;
  const noteOptionId = (noteId: string) => `${id}-note-${noteId}`;
  const status = paletteStatus({
    loadError,
    countries,
    text,
    hits: hits.length,
    notes: notes.length,
  });

  const activeId = current
    ? optionId(current.country.iso)
    : currentNote && noteOptionId(currentNote.id);

  return (
    <PaletteDialog id={id} status={status} onClose={onClose}>
      <input
        ref={input}
        className="palette-input"
        type="text"
        role="combobox"
        aria-label={t('palette.field')}
        aria-expanded={total > 0}
        aria-controls={`${id}-list ${id}-notes`}
        aria-autocomplete="list"
        aria-activedescendant={activeId}
        aria-describedby={`${id}-status`}
        autoComplete="off"
        spellCheck={false}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
      />
      <CountryOptionList
        listId={`${id}-list`}
        optionId={optionId}
        hits={hits}
        current={current}
        figures={figures}
        onChoose={onPick}
        className="palette-list"
      />
      <NoteHitList
        listId={`${id}-notes`}
        optionId={noteOptionId}
        notes={notes}
        current={currentNote}
        countries={countries}
        onChoose={onPick}
      />
    </PaletteDialog>
  );
}

/**
 * The countries with their names in the page language as aliases too (issue 34): a French reader
 * types "Allemagne", an Arabic one "ألمانيا", and finds the country as an English reader would.
 */
function withPageNames(countries: readonly ReferenceCountry[]): readonly ReferenceCountry[] {
  // English's names (and the pseudo-locale's marked ones) are the reference data's own.
  if (formatLanguage().startsWith('en')) return countries;
  return countries.map((country) => {
    const local = displayName(country.iso, country.name);
    return local === country.name || country.aliases.includes(local)
      ? country
      : { ...country, aliases: [...country.aliases, local] };
  });
}

/** The modal frame: a click on the backdrop closes; the lists' status is read out. */
function PaletteDialog({
  id,
  status,
  onClose,
  children,
}: {
  id: string;
  status: string;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <div
      className="palette-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div className="palette" role="dialog" aria-modal="true" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`} className="palette-title">
          {t('search.find')}
        </h2>
        {children}
        <p id={`${id}-status`} className="palette-status" aria-live="polite">
          {status}
        </p>
        <p className="palette-keys" aria-hidden="true">
          ↑ ↓ {t('palette.move')} · <kbd>Enter</kbd> {t('palette.open')} · <kbd>Esc</kbd>{' '}
          {t('palette.close')}
        </p>
      </div>
    </div>
  );
}

/** The team's notes holding the palette's text (issue 31), asked once typing settles. */
function useNoteHits(text: string) {
  const q = noteSearchText(useDeferredValue(text));
  const query = useQuery({ ...noteSearchQueries.search(q ?? ''), enabled: q !== null });
  return q === null ? [] : (query.data ?? []);
}

/** Arrow keys move through the countries then the notes, Enter opens, Escape closes. */
function paletteKeys({
  total,
  setActive,
  onEnter,
  onClose,
}: {
  total: number;
  setActive: (update: (index: number) => number) => void;
  onEnter: () => void;
  onClose: () => void;
}) {
  return (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (total === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((index) => (Math.min(index, total - 1) + step + total) % total);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      onEnter();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      onClose();
    } else if (event.key === 'Tab') {
      // The field is the dialog's only stop: Tab must not wander to the page behind.
      event.preventDefault();
    }
  };
}

/** What the palette's live region says about the lists. */
function paletteStatus({
  loadError,
  countries,
  text,
  hits,
  notes,
}: {
  loadError: Error | null;
  countries: readonly ReferenceCountry[] | undefined;
  text: string;
  hits: number;
  notes: number;
}): string {
  if (loadError !== null) return t('palette.loadError', { message: loadError.message });
  if (countries === undefined) return t('compare.loadingCountries');
  if (text.trim() === '') return t('palette.hint');
  const found =
    hits === 0
      ? t('palette.noMatch', { text: text.trim() })
      : t('palette.matches', { count: hits });
  return notes === 0 ? found : `${found} ${t('palette.noteMatches', { count: notes })}`;
}
