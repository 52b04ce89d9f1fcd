import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { Link } from '../../../lib/app-link';
import type { CountrySummary } from '../../../../shared/bff-api';
import { QueryError } from '../../../components/query-error';
import { Skeleton } from '../../../components/skeleton';
import { StaleNote } from '../../../components/stale-note';
import { TierBadge } from '../../../components/tier-badge';
import { matchesCountry } from '../../../lib/country-search';
import { useSearchAliases } from '../../../lib/country-alias-queries';
import { displayName, formalNameTitle } from '../../../lib/display-name';
import { TableExport, type ExportColumn } from '../../../components/table-export';
import { fileStem } from '../../../lib/file-stem';
import { formatScore, humanise } from '../../../lib/format';
import { tierLabel } from '../../../../shared/tiers';
import { hotspotQueries } from '../api/hotspot-queries';
import { useHotspotFilters } from '../hooks/use-hotspot-filters';
import { overallRanks } from '../utils/overall-rank';
import { sortHotspots, type RankedHotspot } from '../utils/sort';
import { HotspotFilterBar } from './hotspot-filters';
import { HotspotTable, type RowSelection } from './hotspot-table';
import { useAsOf } from '../../../lib/as-of';

const OUTSIDE_MATCHES_SHOWN = 8;

const score = (value: number | null | undefined) =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

/** The download of the rows shown: the table's columns, raw values, tiers in the table's words. */
const HOTSPOT_EXPORT_COLUMNS: ExportColumn<RankedHotspot>[] = [
  { key: 'rank', label: 'Rank', value: (row) => row.overallRank },
  { key: 'iso', label: 'ISO code', value: (row) => row.iso },
  { key: 'name', label: 'Country', value: (row) => displayName(row.iso, row.name) },
  { key: 'risk', label: 'Risk', value: (row) => score(row.risk) },
  { key: 'tier', label: 'Tier', value: (row) => (row.tier ? tierLabel(row.tier) : null) },
  { key: 'static', label: 'Static', value: (row) => score(row.static) },
  { key: 'active', label: 'Active', value: (row) => score(row.active) },
  {
    key: 'delta_active',
    label: 'Δ active (upstream, since its previous batch)',
    value: (row) => score(row.delta_active),
  },
  {
    key: 'delta_risk',
    label: 'Δ risk (upstream, since its previous batch)',
    value: (row) => score(row.delta_headline),
  },
  { key: 'confidence', label: 'Confidence', value: (row) => score(row.confidence) },
  {
    key: 'profile',
    label: 'Profile',
    value: (row) => (row.profile ? humanise(row.profile) : null),
  },
  {
    key: 'threat_vectors',
    label: 'Threat vectors',
    value: (row) => (row.threat_vectors ?? []).map(humanise).join(', '),
  },
  { key: 'source_count', label: 'Sources', value: (row) => score(row.source_count) },
];

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
  selection,
}: {
  countries: readonly CountrySummary[] | undefined;
  onRowIntent?: (iso: string) => void;
  /** Extra controls for the panel's head (the route puts the export links there). */
  actions?: ReactNode;
  /** A control per table row (see HotspotTable). */
  rowAction?: (row: { iso: string; name: string }) => ReactNode;
  now: number;
  /** Rows chosen for Compare; the route owns the choice and shows where it leads. */
  selection?: RowSelection;
}) {
  const location = useLocation();
  // Lets the country page's "back" link return to exactly this filtered view.
  const linkState = { from: `${location.pathname}${location.search}` };
  const [filters, setFilters] = useHotspotFilters();
  const searching = filters.q.trim() !== '';
  const aliases = useSearchAliases(searching);
  // Keep the previous rows on screen while a new filter loads, instead of flashing a skeleton.
  const query = useQuery({
    ...hotspotQueries.list(filters, useAsOf()),
    placeholderData: keepPreviousData,
  });
  const hotspots = query.data?.data.hotspots;

  // "#" is the rank in the whole run: with a tier filter the list's own order is not it.
  const filtered = filters.tiers.length > 0;
  const overall = useMemo(() => overallRanks(countries), [countries]);
  const ranked = useMemo<RankedHotspot[]>(
    () =>
      (hotspots ?? []).map((row, index) => ({
        ...row,
        rank: index + 1,
        overallRank: filtered ? (overall.get(row.iso.toUpperCase()) ?? null) : index + 1,
      })),
    [hotspots, filtered, overall],
  );
  const rows = useMemo(
    () =>
      sortHotspots(
        ranked.filter((row) => matchesCountry(filters.q, row.name, row.iso, aliases)),
        filters.sort,
        filters.dir,
      ),
    [ranked, filters.q, filters.sort, filters.dir, aliases],
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
      .filter((c) => !shown.has(c.iso) && matchesCountry(filters.q, c.name, c.iso, aliases))
      .sort((a, b) => (b.risk ?? -1) - (a.risk ?? -1));
  }, [countries, ranked, filters.q, aliases]);

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
      <HotspotFilterBar
        filters={filters}
        tierOptions={tierOptions}
        tiersLoading={query.isPending && countries === undefined}
        onChange={setFilters}
      />
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
            <>
              <HotspotTable
                rows={rows}
                filters={filters}
                onSort={(sort, dir) => setFilters({ sort, dir })}
                onRowIntent={onRowIntent}
                linkState={linkState}
                selection={selection}
                rowAction={rowAction}
              />
              <TableExport
                columns={HOTSPOT_EXPORT_COLUMNS}
                rows={rows}
                asOf={query.data?.data.as_of}
                filename={fileStem('hotspots', query.data?.data.as_of ?? 'latest')}
              />
            </>
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
                    <Link
                      to={`/country/${encodeURIComponent(c.iso)}`}
                      state={linkState}
                      title={formalNameTitle(c.iso, c.name)}
                    >
                      {displayName(c.iso, c.name)}
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
