import { useMemo, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import type { CountrySummary } from '../../../../shared/bff-api';
import type { ReferenceCountry } from '../../../../shared/history-api';
import { Delta } from '../../../components/delta';
import { QueryError } from '../../../components/query-error';
import { Skeleton } from '../../../components/skeleton';
import { useTableChoice } from '../hooks/use-table-choice';
import { byRisk, inRegion, regionGroups, withRegions } from '../utils/regions';
import {
  ScoreCells,
  SelectCell,
  TableHead,
  type RowSelection,
} from '../../../components/data-table';

/**
 * Every country of the latest batch (`/api/countries`, not only the top 50), highest risk first,
 * filtered by UN region or subregion (`?region=`). Rows can be selected for Compare.
 */
export function AllCountriesPanel({
  countries,
  error,
  onRetry,
  reference,
  onRowIntent,
  actions,
  selection,
  selectionBar,
}: {
  countries: readonly CountrySummary[] | undefined;
  error: Error | null;
  onRetry: () => void;
  /** The reference list (regions); the table shows without it, the filter waits for it. */
  reference: readonly ReferenceCountry[] | undefined;
  onRowIntent?: (iso: string) => void;
  actions?: ReactNode;
  /** Rows chosen for Compare; the route owns the choice (shared with the hotspot table). */
  selection: RowSelection;
  /** Where the choice leads ("Compare 3"), shown beside the filter. */
  selectionBar: ReactNode;
}) {
  const location = useLocation();
  const linkState = { from: `${location.pathname}${location.search}` };
  const { region, setRegion } = useTableChoice();
  const groups = useMemo(() => regionGroups(reference ?? []), [reference]);
  const rows = useMemo(
    () => inRegion(withRegions(countries ?? [], reference), region).sort(byRisk),
    [countries, reference, region],
  );

  return (
    <section className="panel" aria-labelledby="all-countries-heading">
      <div className="panel-head">
        <h2 id="all-countries-heading">All countries</h2>
        {countries ? (
          <p className="panel-sub">
            {rows.length} of {countries.length} countries in the latest batch
            {region ? ` · ${region.replace('/', ' › ')}` : ''}
          </p>
        ) : null}
        {actions}
      </div>
      <div className="filter-bar">
        <div className="field">
          <label htmlFor="region-filter">Region</label>
          <select
            id="region-filter"
            value={region}
            onChange={(event) => setRegion(event.target.value)}
            disabled={!reference}
          >
            <option value="">All regions</option>
            {/* A filter from a hand-edited URL stays visible even if no group holds it. */}
            {region &&
            !groups.some(
              (g) => g.region === region || g.subregions.some((s) => s.value === region),
            ) ? (
              <option value={region}>{region}</option>
            ) : null}
            {groups.map((group) => (
              <optgroup key={group.region} label={group.region}>
                <option value={group.region}>{`${group.region} (all)`}</option>
                {group.subregions.map((sub) => (
                  <option key={sub.value} value={sub.value}>
                    {sub.label}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </div>
        {selectionBar}
      </div>
      {!countries ? (
        error ? (
          <QueryError what="The list of all countries" error={error} onRetry={onRetry} />
        ) : (
          <Skeleton label="Loading all countries" lines={8} />
        )
      ) : rows.length === 0 ? (
        <p className="empty">No country of the latest batch is in this region.</p>
      ) : (
        <div className="table-scroll" role="region" aria-label="All countries table" tabIndex={0}>
          <table className="data-table all-countries-table">
            <caption className="visually-hidden">
              Every country of the latest batch, highest risk first.
            </caption>
            <TableHead
              columns={[
                { label: <span className="visually-hidden">Select for comparison</span> },
                { label: 'Country' },
                { label: 'Region', className: 'col-detail' },
                { label: 'Risk', className: 'num' },
                { label: 'Tier' },
                { label: 'Static', className: 'num col-detail' },
                { label: 'Active', className: 'num col-detail' },
                { label: 'Δ active', className: 'num' },
              ]}
            />
            <tbody>
              {rows.map((row) => (
                <tr
                  key={row.iso}
                  onMouseEnter={() => onRowIntent?.(row.iso)}
                  onFocus={() => onRowIntent?.(row.iso)}
                >
                  <SelectCell iso={row.iso} name={row.name} selection={selection} />
                  <th scope="row" className="country-cell">
                    <Link to={`/country/${encodeURIComponent(row.iso)}`} state={linkState}>
                      {row.name}
                    </Link>{' '}
                    <span className="iso">{row.iso}</span>
                  </th>
                  <td className="col-detail">{row.subregion ?? row.region ?? 'n/a'}</td>
                  <ScoreCells row={row} />
                  <td className="num">
                    <Delta value={row.delta_active} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
