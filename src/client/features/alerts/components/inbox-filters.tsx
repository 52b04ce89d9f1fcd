import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import {
  DISPOSITIONS,
  INBOX_STATES,
  type Disposition,
  type InboxState,
} from '../../../../shared/alert-triage-api';
import { countryName } from '../../../lib/country-names';
import { displayName } from '../../../lib/display-name';
import { activeFormatLocale } from '../../../lib/format';
import { dispositionLabel } from '../utils/disposition-label';
import { alertQueries, type InboxFilter } from '../api/alert-queries';
import type { ParseKeys } from 'i18next';
import { t } from '../../../lib/i18n';

const STATE_LABELS: Record<InboxState, ParseKeys> = {
  unread: 'alerts.unread',
  unacknowledged: 'alerts.unacknowledged',
  acknowledged: 'alerts.acknowledged',
};

const one = <T extends string>(values: readonly T[], raw: string | null): T | undefined =>
  raw !== null && (values as readonly string[]).includes(raw) ? (raw as T) : undefined;

/** The inbox's filters from the URL (unknown values are ignored, never sent). */
export function useInboxFilter(): [InboxFilter, (next: InboxFilter) => void] {
  const [params, setParams] = useSearchParams();
  const iso = params.get('iso');
  const watchlist = params.get('watchlist');
  const filter: InboxFilter = {
    state: one(INBOX_STATES, params.get('state')),
    disposition: one(DISPOSITIONS, params.get('disposition')),
    iso: iso !== null && /^[A-Z]{3}$/.test(iso) ? iso : undefined,
    watchlist: watchlist !== null && /^[1-9]\d{0,14}$/.test(watchlist) ? watchlist : undefined,
  };
  const set = (next: InboxFilter) => {
    const out = new URLSearchParams();
    for (const key of ['state', 'watchlist', 'iso', 'disposition'] as const) {
      const value = next[key];
      if (value) out.set(key, value);
    }
    setParams(out, { replace: true });
  };
  return [filter, set];
}

/** State, list, country and disposition: each a select whose choice goes into the URL. */
export function InboxFilters({
  filter,
  onChange,
}: {
  filter: InboxFilter;
  onChange: (next: InboxFilter) => void;
}) {
  const lists = useQuery(alertQueries.lists());
  const watchlists = lists.data?.data.watchlists ?? [];
  const shown = watchlists.filter((l) => !filter.watchlist || l.id === filter.watchlist);
  const isos = [...new Set(shown.flatMap((l) => l.countries))]
    .map((iso) => {
      const name = countryName(iso);
      return { iso, name: name ? displayName(iso, name) : iso };
    })
    .sort((a, b) => a.name.localeCompare(b.name, activeFormatLocale()));
  const countryOptions = isos.map((c) => ({ value: c.iso, label: `${c.name} (${c.iso})` }));
  // A country in the URL that no list shown has is still offered, as its code.
  if (filter.iso && !isos.some((c) => c.iso === filter.iso)) {
    countryOptions.unshift({ value: filter.iso, label: filter.iso });
  }
  return (
    <div className="inbox-filters" role="group" aria-label={t('alerts.filterLabel')}>
      <FilterSelect
        label={t('alerts.state')}
        value={filter.state}
        all={t('alerts.all')}
        options={INBOX_STATES.map((s) => ({ value: s, label: t(STATE_LABELS[s]) }))}
        onChange={(value) => {
          const state = one(INBOX_STATES, value);
          onChange({
            ...filter,
            state,
            disposition: state === 'unacknowledged' ? undefined : filter.disposition,
          });
        }}
      />
      <FilterSelect
        label={t('alerts.watchlist')}
        value={filter.watchlist}
        all={t('alerts.allLists')}
        options={watchlists.map((l) => ({ value: l.id, label: l.name }))}
        onChange={(value) => onChange({ ...filter, watchlist: value || undefined })}
      />
      <FilterSelect
        label={t('alerts.country')}
        value={filter.iso}
        all={t('alerts.allCountries')}
        options={countryOptions}
        onChange={(value) => onChange({ ...filter, iso: value || undefined })}
      />
      <FilterSelect
        label={t('alerts.disposition')}
        value={filter.disposition}
        all={t('alerts.any')}
        disabled={filter.state === 'unacknowledged'}
        options={DISPOSITIONS.map((d) => ({ value: d, label: dispositionLabel(d) }))}
        onChange={(value) =>
          onChange({ ...filter, disposition: one<Disposition>(DISPOSITIONS, value) })
        }
      />
    </div>
  );
}

/** One labelled select of the inbox's filters; its first option is "all". */
function FilterSelect({
  label,
  value,
  all,
  options,
  disabled,
  onChange,
}: {
  label: string;
  value: string | undefined;
  all: string;
  options: Array<{ value: string; label: string }>;
  disabled?: boolean;
  onChange: (value: string) => void;
}) {
  return (
    <label>
      {label}
      <select value={value ?? ''} disabled={disabled} onChange={(e) => onChange(e.target.value)}>
        <option value="">{all}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}
