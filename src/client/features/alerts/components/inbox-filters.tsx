import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import {
  DISPOSITIONS,
  DISPOSITION_LABELS,
  INBOX_STATES,
  type Disposition,
  type InboxState,
} from '../../../../shared/alert-triage-api';
import { countryName } from '../../../lib/country-names';
import { alertQueries, type InboxFilter } from '../api/alert-queries';

const STATE_LABELS: Record<InboxState, string> = {
  unread: 'Unread',
  unacknowledged: 'Not acknowledged',
  acknowledged: 'Acknowledged',
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
    .map((iso) => ({ iso, name: countryName(iso) ?? iso }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return (
    <div className="inbox-filters" role="group" aria-label="Filter the inbox">
      <label>
        State
        <select
          value={filter.state ?? ''}
          onChange={(e) => {
            const state = one(INBOX_STATES, e.target.value);
            onChange({
              ...filter,
              state,
              disposition: state === 'unacknowledged' ? undefined : filter.disposition,
            });
          }}
        >
          <option value="">All</option>
          {INBOX_STATES.map((s) => (
            <option key={s} value={s}>
              {STATE_LABELS[s]}
            </option>
          ))}
        </select>
      </label>
      <label>
        Watchlist
        <select
          value={filter.watchlist ?? ''}
          onChange={(e) => onChange({ ...filter, watchlist: e.target.value || undefined })}
        >
          <option value="">All lists</option>
          {watchlists.map((l) => (
            <option key={l.id} value={l.id}>
              {l.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Country
        <select
          value={filter.iso ?? ''}
          onChange={(e) => onChange({ ...filter, iso: e.target.value || undefined })}
        >
          <option value="">All countries</option>
          {filter.iso && !isos.some((c) => c.iso === filter.iso) ? (
            <option value={filter.iso}>{filter.iso}</option>
          ) : null}
          {isos.map((c) => (
            <option key={c.iso} value={c.iso}>
              {c.name} ({c.iso})
            </option>
          ))}
        </select>
      </label>
      <label>
        Disposition
        <select
          value={filter.disposition ?? ''}
          disabled={filter.state === 'unacknowledged'}
          onChange={(e) => {
            const disposition = one<Disposition>(DISPOSITIONS, e.target.value);
            onChange({ ...filter, disposition });
          }}
        >
          <option value="">Any</option>
          {DISPOSITIONS.map((d) => (
            <option key={d} value={d}>
              {DISPOSITION_LABELS[d]}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
