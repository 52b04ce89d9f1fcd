import { useId } from 'react';
import { SITE_KINDS, type ExposureWeight, type Site } from '../../../../shared/sites-api';
import { TierFilter } from '../../../components/tier-filter';
import { SelectField } from '../../../components/select-field';
import { activeFormatLocale } from '../../../lib/format';
import { t } from '../../../lib/i18n';
import type { ExposureView } from '../utils/exposure-view';
import { kindWord, siteCountryName } from '../utils/exposure-words';

/**
 * The choices the sites themselves offer: their countries and tags (kinds are a fixed list);
 * countries by their names in the page language, in its order.
 */
function choicesOf(sites: readonly Site[] | undefined) {
  const locale = activeFormatLocale();
  const countries = [...new Set((sites ?? []).map((s) => s.iso))]
    .map((iso) => ({ iso, name: siteCountryName(iso) }))
    .sort((a, b) => a.name.localeCompare(b.name, locale));
  const tags = [...new Set((sites ?? []).flatMap((s) => s.tags))].sort((a, b) =>
    a.localeCompare(b, locale),
  );
  return { countries, tags };
}

/** Tier, country, kind, tag and the index's weight; every change is written to the URL. */
export function ExposureFilters({
  view,
  tiers,
  sites,
  onChange,
}: {
  view: ExposureView;
  /** Tier labels in the answer (the filter keeps the selected ones too). */
  tiers: readonly string[];
  /** Every site (unfiltered), for the country and tag choices; undefined while loading. */
  sites: readonly Site[] | undefined;
  onChange: (change: Partial<ExposureView>) => void;
}) {
  const { filters } = view;
  const { countries, tags } = choicesOf(sites);
  const country = filters.countries[0] ?? '';
  const setFilters = (change: Partial<ExposureView['filters']>) =>
    onChange({ filters: { ...filters, ...change } });
  return (
    <div className="filter-bar exposure-filters">
      <TierFilter
        selected={filters.tiers}
        options={tiers.filter((t) => t !== 'unknown')}
        onChange={(next) => setFilters({ tiers: next })}
      />
      <CountryChoice
        country={country}
        countries={countries}
        onChange={(iso) => setFilters({ countries: iso ? [iso] : [] })}
      />
      <SelectField
        label={t('exposurePage.kind')}
        value={filters.kinds[0] ?? ''}
        onChange={(chosen) => setFilters({ kinds: SITE_KINDS.filter((kind) => kind === chosen) })}
      >
        <option value="">{t('exposurePage.allKinds')}</option>
        {SITE_KINDS.map((kind) => (
          <option key={kind} value={kind}>
            {kindWord(kind)}
          </option>
        ))}
      </SelectField>
      <SelectField
        label={t('exposurePage.tag')}
        value={filters.tag ?? ''}
        onChange={(tag) => setFilters({ tag: tag || null })}
      >
        <option value="">{t('exposurePage.allTags')}</option>
        {/* Tags are the team's own words: kept as typed. */}
        {filters.tag && !tags.includes(filters.tag) ? (
          <option value={filters.tag} translate="no">
            {filters.tag}
          </option>
        ) : null}
        {tags.map((tag) => (
          <option key={tag} value={tag} translate="no">
            {tag}
          </option>
        ))}
      </SelectField>
      <WeightChoice weight={view.weight} onChange={(weight) => onChange({ weight })} />
    </div>
  );
}

/** One country of those the sites are in (a country in the URL but in no site is kept). */
function CountryChoice({
  country,
  countries,
  onChange,
}: {
  country: string;
  countries: Array<{ iso: string; name: string }>;
  onChange: (iso: string) => void;
}) {
  return (
    <SelectField label={t('exposurePage.country')} value={country} onChange={onChange}>
      <option value="">{t('exposurePage.allCountries')}</option>
      {country && !countries.some((c) => c.iso === country) ? (
        <option value={country}>{siteCountryName(country)}</option>
      ) : null}
      {countries.map((c) => (
        <option key={c.iso} value={c.iso}>
          {c.name}
        </option>
      ))}
    </SelectField>
  );
}

/** What the exposure index weighs sites by: their people or their value. */
function WeightChoice({
  weight: chosen,
  onChange,
}: {
  weight: ExposureWeight;
  onChange: (weight: ExposureWeight) => void;
}) {
  const id = useId();
  return (
    <fieldset className="weight-choice">
      <legend>{t('exposurePage.weightedBy')}</legend>
      {(['people', 'value'] as const satisfies readonly ExposureWeight[]).map((weight) => (
        <label key={weight}>
          <input
            type="radio"
            name={`${id}-weight`}
            value={weight}
            checked={chosen === weight}
            onChange={() => onChange(weight)}
          />
          {weight === 'people' ? t('exposurePage.people') : t('exposurePage.value')}
        </label>
      ))}
    </fieldset>
  );
}
