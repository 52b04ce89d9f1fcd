import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { GlobalHistoryPoint } from '../../../../shared/history-api';
import { useTierOrder } from '../../../lib/tier-scale';
import { TrendFrame } from '../../../components/trend-frame';
import { QueryError } from '../../../components/query-error';
import { Skeleton } from '../../../components/skeleton';
import { TierBadge } from '../../../components/tier-badge';
import { fileStem } from '../../../lib/csv';
import { historyQueries } from '../api/history-queries';
import { useTrendRows } from '../hooks/use-trend-rows';
import { rangeLabel } from '../utils/range';
import { HistorySince } from './history-since';
import { RangePicker } from './range-picker';
import { scoreTrend } from '../../../components/lazy-trend-chart';
import { tierWord } from '../../../lib/tier-words';
import { t } from '../../../lib/i18n';

// No tier bands on this chart: the global index moves by tenths, which a fixed 0–100 scale would
// flatten.
// Made when the panel mounts (the page is remade when its language changes), not at import.
const makeTrend = () =>
  scoreTrend<GlobalHistoryPoint, 'index'>(
    { key: 'index', label: t('trend.globalIndex') },
    { key: 'events_24h', label: t('trend.events24h'), kind: 'text' },
    { key: 'tier', label: t('trend.tier'), kind: 'tier' },
  );

function TierCounts({ point }: { point: GlobalHistoryPoint | undefined }) {
  const order = useTierOrder(Object.keys(point?.tier_counts ?? {}));
  const counts = Object.entries(point?.tier_counts ?? {}).sort(([a], [b]) => order(a, b));
  if (counts.length === 0) return null;
  return (
    <ul className="tier-counts" aria-label={t('trend.tierCounts')}>
      {counts.map(([tier, count]) => (
        <li key={tier}>
          <TierBadge tier={tier} /> <span className="tier-count">{count}</span>
          <span className="visually-hidden">
            {t('trend.tierCountries', { tier: tierWord(tier) })}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The global index over time (7 d / 30 d / 90 d / all, in the URL) with the latest tier counts. */
export function GlobalTrendPanel() {
  const query = useQuery(historyQueries.global());
  const points = query.data?.data.points;
  const [trend] = useState(makeTrend);
  const { range, setRange, chartRows: rows, tableRows } = useTrendRows(points, trend);

  return (
    <section className="panel trend-panel" aria-labelledby="global-trend-heading">
      <div className="panel-head">
        <h2 id="global-trend-heading">{t('trend.heading')}</h2>
        <RangePicker value={range} onChange={setRange} label={t('trend.range')} />
      </div>
      {query.isPending ? (
        <Skeleton label={t('trend.loading')} height={260} />
      ) : query.isError && !query.data ? (
        <QueryError
          what={t('trend.error')}
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <>
          <HistorySince coverage={query.data.data.coverage} />
          <TierCounts point={points?.at(-1)} />
          {tableRows.length === 0 ? (
            <p className="empty">
              {points?.length
                ? t('trend.noBatchInRange', { range: rangeLabel(range).toLowerCase() })
                : t('trend.noHistory')}
            </p>
          ) : (
            <TrendFrame
              label={t('trend.heading')}
              viewParam="trend_view"
              columns={trend.columns}
              rows={tableRows}
              filename={fileStem('global-index', range)}
              drawing={t('trend.drawing')}
              chartRows={rows}
              series={trend.series}
              methodChanges={query.data.data.method_changes}
            />
          )}
        </>
      )}
    </section>
  );
}
