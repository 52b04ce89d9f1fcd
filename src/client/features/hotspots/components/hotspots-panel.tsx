import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import type { CountrySummary } from '../../../../shared/bff-api';
import { QueryError } from '../../../components/query-error';
import { Skeleton } from '../../../components/skeleton';
import { StaleNote } from '../../../components/stale-note';
import { TierBadge } from '../../../components/tier-badge';
import { formatScore, searchKey } from '../../../lib/format';
import { hotspotQueries } from '../api/hotspot-queries';
import { useHotspotFilters } from '../hooks/use-hotspot-filters';
import { sortHotspots, type RankedHotspot } from '../utils/sort';
import { HotspotFilterBar } from './hotspot-filters';
import { HotspotTable } from './hotspot-table';

const OUTSIDE_MATCHES_SHOWN = 8;

function matches(query: string, name: string, iso: string): boolean {
  const key = searchKey(query.trim());
  return key === '' || searchKey(name).includes(key) || iso.toLowerCase() === key;
}

/**
 * The ranked hotspot table with its filters. `countries` (every country of the batch, when
 * loaded) supplies the tier options and finds search matches outside the top rows.
 */
export function HotspotsPanel({
  countries,
  onRowIntent,
  actions,
  rowAction,
  now,
}: {
  countries: readonly CountrySummary[] | undefined;
  onRowIntent?: (iso: string) => void;
  /** Extra controls for the panel's head (the route puts the export links there). */
  actions?: ReactNode;
  /** A control per table row (see HotspotTable). */
  rowAction?: (row: { iso: string; name: string }) => ReactNode;
  now: number;
}) {
  const location = useLocation();
  // Lets the country page's "back" link return to exactly this filtered view.
  const linkState = { from: `${location.pathname}${location.search}` };
  const [filters, setFilters] = useHotspotFilters();
  // Keep the previous rows on screen while a new filter loads, instead of flashing a skeleton.
  const query = useQuery({ ...hotspotQueries.list(filters), placeholderData: keepPreviousData });
  const hotspots = query.data?.data.hotspots;

  const ranked = useMemo<RankedHotspot[]>(
    () => (hotspots ?? []).map((row, index) => ({ ...row, rank: index + 1 })),
    [hotspots],
  );
  const rows = useMemo(
    () =>
      sortHotspots(
        ranked.filter((row) => matches(filters.q, row.name, row.iso)),
        filters.sort,
        filters.dir,
      ),
    [ranked, filters.q, filters.sort, filters.dir],
  );
  const tierOptions = useMemo(() => {
    const labels = new Set<string>();
    for (const row of [...(countries ?? []), ...ranked]) if (row.tier) labels.add(row.tier);
    return [...labels];
  }, [countries, ranked]);

  const outside = useMemo(() => {
    if (filters.q.trim() === '' || !countries) return [];
    const shown = new Set(ranked.map((row) => row.iso));
    return countries
      .filter((c) => !shown.has(c.iso) && matches(filters.q, c.name, c.iso))
      .sort((a, b) => (b.risk ?? -1) - (a.risk ?? -1));
  }, [countries, ranked, filters.q]);

  return (
    <section className="panel" aria-labelledby="hotspots-heading">
      <div className="panel-head">
        <h2 id="hotspots-heading">Hotspots</h2>
        {query.data ? (
          <p className="panel-sub">
            {rows.length === ranked.length
              ? `Top ${ranked.length} of the latest run`
              : `${rows.length} of the top ${ranked.length} match “${filters.q}”`}
            {filters.tiers.length > 0 ? ' · filtered by tier' : ''}
            {query.isPlaceholderData ? ' · updating…' : ''}
          </p>
        ) : null}
        {actions}
      </div>
      <HotspotFilterBar filters={filters} tierOptions={tierOptions} onChange={setFilters} />
      <StaleNote
        fetched={query.data}
        refreshError={query.isRefetchError ? query.error : null}
        now={now}
      />
      {query.isPending ? (
        <Skeleton label="Loading hotspots" lines={8} />
      ) : query.isError && !query.data ? (
        <QueryError
          what="The hotspot list"
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <>
          {rows.length > 0 ? (
            <HotspotTable
              rows={rows}
              filters={filters}
              onSort={(sort, dir) => setFilters({ sort, dir })}
              onRowIntent={onRowIntent}
              linkState={linkState}
              rowAction={rowAction}
            />
          ) : (
            <p className="empty">
              {ranked.length === 0
                ? 'No hotspots for these tiers in the latest run.'
                : `None of the top ${ranked.length} hotspots match “${filters.q}”.`}
            </p>
          )}
          {outside.length > 0 ? (
            <div className="outside-matches">
              <h3>Also matching “{filters.q}”, outside these rows</h3>
              <ul>
                {outside.slice(0, OUTSIDE_MATCHES_SHOWN).map((c) => (
                  <li key={c.iso}>
                    <Link to={`/country/${encodeURIComponent(c.iso)}`} state={linkState}>
                      {c.name}
                    </Link>{' '}
                    <span className="muted">
                      risk {formatScore(c.risk)} <TierBadge tier={c.tier} />
                    </span>
                  </li>
                ))}
              </ul>
              {outside.length > OUTSIDE_MATCHES_SHOWN ? (
                <p className="muted">
                  and {outside.length - OUTSIDE_MATCHES_SHOWN} more; refine the search.
                </p>
              ) : null}
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}
