import { useQuery } from '@tanstack/react-query';
import { Link } from '../../../lib/app-link';
import type { CountrySummary } from '../../../../shared/bff-api';
import { Delta } from '../../../components/delta';
import { Sparkline } from '../../../components/sparkline';
import { TierBadge } from '../../../components/tier-badge';
import { formatScore, formatUtcDateTime } from '../../../lib/format';
import { watchlistQueries } from '../api/watchlist-queries';
import { TableHead, TableRegion } from '../../../components/data-table';
import { displayName } from '../../../lib/display-name';
import { useAsOf } from '../../../lib/as-of';
import { useRiskIndex } from '../../../lib/risk-index';
import { t } from '../../../lib/i18n';

/** The batches up to the one the page shows (`?as_of=`): a past page has no future in its trend. */
function upTo<P extends { as_of: string }>(
  points: readonly P[],
  asOf: string | null,
): readonly P[] {
  const until = asOf === null ? Number.NaN : Date.parse(asOf);
  return Number.isNaN(until) ? points : points.filter((p) => Date.parse(p.as_of) <= until);
}

function Trend({ iso }: { iso: string }) {
  const trend = useQuery(watchlistQueries.trend(iso, useRiskIndex()[0]));
  const asOf = useAsOf();
  if (trend.isPending)
    return <span className="sparkline-empty">{t('watchlists.trendLoading')}</span>;
  if (trend.isError) return <span className="sparkline-empty">{t('watchlists.noTrend')}</span>;
  const points = upTo(trend.data.data.points, asOf);
  const recorded = points.filter((p) => p.risk !== null).length;
  // The sparkline's own "not enough history" sentence would fill a phone's column.
  if (recorded < 2) {
    return (
      <span className="sparkline-empty">
        {recorded === 1 ? t('watchlists.oneBatch') : t('watchlists.noHistory')}
      </span>
    );
  }
  return (
    <Sparkline
      values={points.slice(-60).map((p) => p.risk)}
      label={t('watchlists.trendLabel', {
        iso,
        count: Math.min(60, points.length),
        date: formatUtcDateTime(points.at(-1)?.as_of),
      })}
    />
  );
}

/**
 * A list's countries with their numbers of the batch the page shows (the latest, or `?as_of=`'s:
 * `countries` comes from that batch) and their risk trends up to it.
 */
export function WatchlistCountries({
  isos,
  countries,
}: {
  isos: readonly string[];
  countries: readonly CountrySummary[] | undefined;
}) {
  const byIso = new Map((countries ?? []).map((c) => [c.iso, c]));
  return (
    <TableRegion label={t('watchlists.tableLabel')}>
      <table className="data-table watchlist-table">
        <TableHead
          columns={[
            { label: t('table.country') },
            { label: t('table.risk'), className: 'num' },
            { label: t('table.tier') },
            { label: t('table.active'), className: 'num' },
            { label: t('table.deltaActive'), className: 'num' },
            { label: t('watchlists.trend') },
          ]}
        />
        <tbody>
          {isos.map((iso) => {
            const c = byIso.get(iso);
            return (
              <tr key={iso}>
                <th scope="row" className="country-cell">
                  <Link to={`/country/${encodeURIComponent(iso)}`}>
                    {c?.name ? displayName(iso, c.name) : iso}
                  </Link>{' '}
                  <span className="iso">{iso}</span>
                </th>
                <td className="num strong">{formatScore(c?.risk)}</td>
                <td>
                  <TierBadge tier={c?.tier} />
                </td>
                <td className="num">{formatScore(c?.active)}</td>
                <td className="num">
                  <Delta value={c?.delta_active} />
                </td>
                <td>
                  <Trend iso={iso} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableRegion>
  );
}
