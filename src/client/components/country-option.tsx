import { formatScore } from '../lib/format';
import type { SearchHit } from '../lib/country-match';
import { TierBadge } from './tier-badge';
import { displayName } from '../lib/display-name';
import { t } from '../lib/i18n';

/** Each country's tier and risk in the latest batch, by ISO code; null while unknown. */
export type CountryFigures = ReadonlyMap<
  string,
  { tier?: string | null | undefined; risk?: number | null | undefined }
>;

/**
 * What a search result says of its country (the palette and the country picker): name and code,
 * then its tier and risk in the latest batch, the common name it matched by and its region.
 */
export function CountryOptionText({
  hit,
  figures,
}: {
  hit: SearchHit;
  figures: CountryFigures | null;
}) {
  const { country } = hit;
  const numbers = figures?.get(country.iso);
  const name = displayName(country.iso, country.name);
  // A match by the name shown (its name in the page language) needs no "matches" beside it.
  const via = hit.via === name ? null : hit.via;
  return (
    <>
      <span className="palette-name">
        {name} <span className="iso">{country.iso}</span>
      </span>
      <span className="palette-meta">
        {numbers ? (
          <span className="palette-figures">
            <TierBadge tier={numbers.tier} />{' '}
            {t('hotspots.outsideRisk', { score: formatScore(numbers.risk, 1) })}
          </span>
        ) : figures !== null ? (
          <span className="palette-figures">{t('palette.notInData')}</span>
        ) : null}
        <span>
          {via ? `${t('palette.matchesName', { name: via })} · ` : ''}
          {/* The reference data's region names, as they came (issue 34). */}
          <span translate="no">{country.subregion ?? country.region ?? ''}</span>
        </span>
      </span>
    </>
  );
}

/**
 * The listbox of matching countries (the palette's and the picker's) for a combobox field: the
 * active option marked; a click chooses without taking the focus from the field.
 */
export function CountryOptionList({
  listId,
  optionId,
  hits,
  current,
  figures,
  onChoose,
  className,
  hidden,
}: {
  listId: string;
  optionId: (iso: string) => string;
  hits: readonly SearchHit[];
  current: SearchHit | undefined;
  figures: CountryFigures | null;
  onChoose: (iso: string) => void;
  className: string;
  hidden?: boolean;
}) {
  return (
    <ul
      id={listId}
      role="listbox"
      aria-label={t('palette.countries')}
      className={className}
      hidden={hidden}
    >
      {hits.map((hit) => (
        <li
          key={hit.country.iso}
          id={optionId(hit.country.iso)}
          role="option"
          aria-selected={hit === current}
          className={hit === current ? 'palette-option is-active' : 'palette-option'}
          // Keep focus in the field: a click chooses, it does not blur first.
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => onChoose(hit.country.iso)}
        >
          <CountryOptionText hit={hit} figures={figures} />
        </li>
      ))}
    </ul>
  );
}
