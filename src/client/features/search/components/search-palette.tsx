import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { ReferenceCountry } from '../../../../shared/history-api';
import { CountryOptionList, type CountryFigures } from '../../../components/country-option';
import { searchCountries } from '../../../lib/country-match';

/**
 * "Find a country": a modal dialog with a combobox over every ISO country (names, codes, common
 * names). Arrow keys move, Enter opens, Escape closes; focus stays in the field while open and
 * the caller returns it on close. Each result shows its tier and risk; countries missing from the
 * current data are listed and say so.
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
  const hits = useMemo(
    () => searchCountries(countries ?? [], text, figures),
    [countries, text, figures],
  );
  const current = hits[Math.min(active, hits.length - 1)];

  useEffect(() => input.current?.focus(), []);

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (hits.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((index) => (Math.min(index, hits.length - 1) + step + hits.length) % hits.length);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      if (current) onPick(current.country.iso);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      onClose();
    } else if (event.key === 'Tab') {
      // The field is the dialog's only stop: Tab must not wander to the page behind.
      event.preventDefault();
    }
  };

  const optionId = (iso: string) => `${id}-option-${iso}`;
  const status =
    loadError !== null
      ? `The list of countries could not be loaded: ${loadError.message}`
      : countries === undefined
        ? 'Loading countries…'
        : text.trim() === ''
          ? 'Type a name, an ISO code or a common name such as UK or Burma.'
          : hits.length === 0
            ? `No country matches “${text.trim()}”.`
            : `${hits.length} ${hits.length === 1 ? 'country matches' : 'countries match'}.`;

  return (
    <div
      className="palette-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div className="palette" role="dialog" aria-modal="true" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`} className="palette-title">
          Find a country
        </h2>
        <input
          ref={input}
          className="palette-input"
          type="text"
          role="combobox"
          aria-label="Country name or code"
          aria-expanded={hits.length > 0}
          aria-controls={`${id}-list`}
          aria-autocomplete="list"
          aria-activedescendant={current ? optionId(current.country.iso) : undefined}
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
        <p id={`${id}-status`} className="palette-status" aria-live="polite">
          {status}
        </p>
        <p className="palette-keys" aria-hidden="true">
          ↑ ↓ move · Enter open · Esc close
        </p>
      </div>
    </div>
  );
}
