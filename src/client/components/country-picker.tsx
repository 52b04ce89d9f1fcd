import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { ReferenceCountry } from '../../shared/history-api';
import { searchCountries } from '../lib/country-match';
import { CountryOptionList, type CountryFigures } from './country-option';
import { displayName } from '../lib/display-name';
import { t } from '../lib/i18n';

const SHOWN = 8;

/** What a country picker needs to name and find countries (a route loads it: useCountryChoices). */
export interface CountryChoices {
  countries: readonly ReferenceCountry[] | undefined;
  loadError: Error | null;
  figures: CountryFigures | null;
}

interface CountryPickerProps {
  label: string;
  pendingName: string;
  /** Its `countries` are undefined while the list loads. */
  choices: CountryChoices;
  chosen: readonly string[];
  onChange: (next: string[]) => void;
  max: number;
  /** A problem with the field, shown under it and tied to it. */
  error: string | null;
}

/**
 * Choosing countries by name (the search palette's matching: codes, common names, one typo):
 * the chosen ones as chips with a remove button each, a combobox to add more. Arrow keys move
 * through the matches, Enter adds the highlighted one, Escape closes the list. The typed text
 * stays in a form field named `pendingName`, so a form can tell "typed but not chosen" apart.
 */
export function CountryPicker({
  label,
  pendingName,
  choices,
  chosen,
  onChange,
  max,
  error,
}: CountryPickerProps) {
  const id = useId();
  const picker = usePicker(choices, chosen, onChange, max);
  const { input, text, setText, setActive, setOpen, hits, listed, current, nameOf, remove } =
    picker;
  const optionId = (iso: string) => `${id}-option-${iso}`;
  const status = pickerStatus({ ...picker, loadError: choices.loadError, chosen, max });
  const describedBy = [`${id}-status`, error ? `${id}-error` : null].filter(Boolean).join(' ');

  return (
    <div className="country-picker">
      <label htmlFor={`${id}-input`} className="field-label">
        {label}
      </label>
      <ChosenChips chosen={chosen} nameOf={nameOf} remove={remove} />
      <div className="picker-field">
        <input
          ref={input}
          id={`${id}-input`}
          name={pendingName}
          type="text"
          role="combobox"
          aria-expanded={listed}
          aria-controls={`${id}-list`}
          aria-autocomplete="list"
          aria-activedescendant={current ? optionId(current.country.iso) : undefined}
          aria-describedby={describedBy}
          aria-invalid={error ? true : undefined}
          autoComplete="off"
          spellCheck={false}
          disabled={picker.full}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setActive(0);
            setOpen(true);
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => setOpen(false)}
          onKeyDown={picker.onKeyDown}
        />
        <CountryOptionList
          listId={`${id}-list`}
          optionId={optionId}
          hits={listed ? hits : []}
          current={current}
          figures={choices.figures}
          onChoose={picker.add}
          className="palette-list picker-list"
          hidden={!listed}
        />
      </div>
      <p id={`${id}-status`} className="field-hint" aria-live="polite">
        {status}
      </p>
      {error ? (
        <p id={`${id}-error`} className="field-problem">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The picker's typed text, its matches and the keys that move through and choose them. */
function usePicker(
  { countries, figures }: CountryChoices,
  chosen: readonly string[],
  onChange: (next: string[]) => void,
  max: number,
) {
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const full = chosen.length >= max;
  const hits = useMemo(() => {
    const taken = new Set(chosen);
    return searchCountries(countries ?? [], text, figures, SHOWN + chosen.length)
      .filter((hit) => !taken.has(hit.country.iso))
      .slice(0, SHOWN);
  }, [countries, text, figures, chosen]);
  const listed = open && !full && hits.length > 0;
  const current = listed ? hits[Math.min(active, hits.length - 1)] : undefined;
  const nameOf = useMemo(() => {
    const names = new Map((countries ?? []).map((c) => [c.iso, displayName(c.iso, c.name)]));
    return (iso: string) => names.get(iso) ?? iso;
  }, [countries]);

  const add = (iso: string) => {
    if (full || chosen.includes(iso)) return;
    onChange([...chosen, iso]);
    setText('');
    setActive(0);
  };
  const remove = (iso: string) => {
    onChange(chosen.filter((c) => c !== iso));
    // The button goes away with its chip: reading continues in the field, not at the page top.
    input.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      if (hits.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((index) => (Math.min(index, hits.length - 1) + step + hits.length) % hits.length);
    } else if (event.key === 'Enter' && text.trim() !== '') {
      // Enter with typed text picks; it never submits a half-chosen list.
      event.preventDefault();
      if (current) add(current.country.iso);
    } else if (event.key === 'Escape' && listed) {
      event.preventDefault();
      setOpen(false);
    }
  };

  return {
    input,
    text,
    setText,
    setActive,
    setOpen,
    full,
    hits,
    listed,
    current,
    nameOf,
    add,
    remove,
    onKeyDown,
    countries,
  };
}

/** What the field says under it: how many are chosen, what matches, or why nothing can. */
function pickerStatus({
  loadError,
  chosen,
  max,
  full,
  text,
  countries,
  hits,
  nameOf,
}: {
  loadError: Error | null;
  chosen: readonly string[];
  max: number;
  full: boolean;
  text: string;
  countries: readonly ReferenceCountry[] | undefined;
  hits: readonly unknown[];
  nameOf: (iso: string) => string;
}): string {
  // A single choice (a site's country) is no list: "0 of 1 countries" read as a count of nothing.
  const single = max === 1;
  return loadError !== null
    ? t('fields.pickerLoadError', { message: loadError.message })
    : full
      ? single
        ? t('fields.pickerSingleChosen', { name: nameOf(chosen[0] ?? '') })
        : t('fields.pickerFull', { chosen: chosen.length, count: max })
      : text.trim() === ''
        ? single
          ? t('fields.pickerSingleEmpty')
          : t('fields.pickerEmpty', { chosen: chosen.length, count: max })
        : countries === undefined
          ? t('fields.pickerLoading')
          : hits.length === 0
            ? t('fields.pickerNoMatch', { text: text.trim() })
            : t('fields.pickerMatches', { count: hits.length });
}

/** The chosen countries, each with its remove button. */
function ChosenChips({
  chosen,
  nameOf,
  remove,
}: {
  chosen: readonly string[];
  nameOf: (iso: string) => string;
  remove: (iso: string) => void;
}) {
  if (chosen.length === 0) return null;
  return (
    <ul className="picker-chips" aria-label={t('fields.pickerChosen', { n: chosen.length })}>
      {chosen.map((iso) => (
        <li key={iso}>
          {nameOf(iso)} <span className="iso">{iso}</span>
          <button
            type="button"
            className="chip-remove"
            aria-label={t('fields.pickerRemove', { name: nameOf(iso) })}
            onClick={() => remove(iso)}
          >
            <span aria-hidden="true">×</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
