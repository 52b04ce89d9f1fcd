import { useId, useState, type FormEvent } from 'react';
import { useAppNavigate } from '../../../lib/app-link';
import type { ReferenceCountry } from '../../../../shared/history-api';
import { displayName } from '../../../lib/display-name';
import { searchKey } from '../../../lib/format';
import { t } from '../../../lib/i18n';
import { compareHref, MAX_COMPARE } from '../utils/compare-param';

/** The code a typed text names: "NER", "Niger", "Niger (NER)" or an alias such as "Burma". */
function resolveTyped(text: string, reference: readonly ReferenceCountry[]): string | null {
  const key = searchKey(text.trim());
  if (key === '') return null;
  const bracketed = /\(([a-z]{3})\)$/.exec(key)?.[1];
  for (const country of reference) {
    const iso = country.iso.toLowerCase();
    if (iso === key || iso === bracketed) return country.iso;
    const names = [country.name, displayName(country.iso, country.name), ...country.aliases];
    if (names.some((name) => searchKey(name) === key)) {
      return country.iso;
    }
  }
  return null;
}

/**
 * "Compare with…": adds a country to the given ones and opens the compare page. A text field
 * with suggestions (a native datalist: keyboard and screen-reader support come with it).
 */
export function ComparePicker({
  current,
  reference,
  label,
}: {
  current: readonly string[];
  reference: readonly ReferenceCountry[] | undefined;
  /** "Compare with…" unless given. */
  label?: string;
}) {
  const id = useId();
  const navigate = useAppNavigate();
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  if (current.length >= MAX_COMPARE) return null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const iso = resolveTyped(text, reference ?? []);
    if (!iso) {
      setProblem(t('compare.noSuchCountry', { text: text.trim() }));
      return;
    }
    if (current.includes(iso)) {
      setProblem(t('compare.already', { iso }));
      return;
    }
    setProblem(null);
    setText('');
    void navigate(compareHref([...current, iso]));
  };

  return (
    <form className="compare-picker" onSubmit={submit}>
      <label htmlFor={`${id}-input`}>{label ?? t('compare.with')}</label>
      <input
        id={`${id}-input`}
        list={`${id}-list`}
        value={text}
        onChange={(event) => setText(event.target.value)}
        placeholder={reference ? t('compare.placeholder') : t('compare.loadingCountries')}
        aria-describedby={problem ? `${id}-problem` : undefined}
        aria-invalid={problem ? true : undefined}
        autoComplete="off"
      />
      <datalist id={`${id}-list`}>
        {(reference ?? [])
          .filter((country) => !current.includes(country.iso))
          .map((country) => (
            <option
              key={country.iso}
              value={`${displayName(country.iso, country.name)} (${country.iso})`}
            />
          ))}
      </datalist>
      <button type="submit" disabled={text.trim() === ''}>
        {t('compare.submit')}
      </button>
      {problem ? (
        <p id={`${id}-problem`} className="field-problem" role="alert">
          {problem}
        </p>
      ) : null}
    </form>
  );
}
