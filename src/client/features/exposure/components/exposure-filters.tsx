import { useId } from 'react';
import { SITE_KINDS, type ExposureWeight, type Site } from '../../../../shared/sites-api';
import { TierFilter } from '../../../components/tier-filter';
import { SelectField } from '../../../components/select-field';
import { countryName } from '../../../lib/country-names';
import type { ExposureView } from '../utils/exposure-view';

/** The choices the sites themselves offer: their countries and tags (kinds are a fixed list). */
function choicesOf(sites: readonly Site[] | undefined) {
  const countries = [...new Set((sites ?? []).map((s) => s.iso))]
    .map((iso) => ({ iso, name: countryName(iso) ?? iso }))
    .sort((a, b) => a.name.localeCompare(b.name, 'en'));
  const tags = [...new Set((sites ?? []).flatMap((s) => s.tags))].sort((a, b) =>
    a.localeCompare(b, 'en'),
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
        label="Kind"
        value={filters.kinds[0] ?? ''}
        onChange={(chosen) => setFilters({ kinds: SITE_KINDS.filter((kind) => kind === chosen) })}
      >
        <option value="">All kinds</option>
        {SITE_KINDS.map((kind) => (
          <option key={kind} value={kind}>
            {kind}
          </option>
        ))}
      </SelectField>
      <SelectField
        label="Tag"
        value={filters.tag ?? ''}
        onChange={(tag) => setFilters({ tag: tag || null })}
      >
        <option value="">All tags</option>
        {filters.tag && !tags.includes(filters.tag) ? (
          <option value={filters.tag}>{filters.tag}</option>
        ) : null}
        {tags.map((tag) => (
          <option key={tag} value={tag}>
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
    <SelectField label="Country" value={country} onChange={onChange}>
      <option value="">All countries</option>
      {country && !countries.some((c) => c.iso === country) ? (
        <option value={country}>{countryName(country) ?? country}</option>
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
      <legend>Index weighted by</legend>
      {(['people', 'value'] as const satisfies readonly ExposureWeight[]).map((weight) => (
        <label key={weight}>
          <input
            type="radio"
            name={`${id}-weight`}
            value={weight}
            checked={chosen === weight}
            onChange={() => onChange(weight)}
          />
          {weight === 'people' ? 'People' : 'Value'}
        </label>
      ))}
    </fieldset>
  );
}
