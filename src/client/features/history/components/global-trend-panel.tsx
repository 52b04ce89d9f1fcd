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
import { RANGE_LABELS } from '../utils/range';
import { HistorySince } from './history-since';
import { RangePicker } from './range-picker';
import { scoreTrend } from '../../../components/lazy-trend-chart';
import { tierWord } from '../../../lib/tier-words';

// No tier bands on this chart: the global index moves by tenths, which a fixed 0–100 scale would
// flatten.
const TREND = scoreTrend<GlobalHistoryPoint, 'index'>(
  { key: 'index', label: 'Global index' },
  { key: 'events_24h', label: 'Events (24 h)', kind: 'text' },
  { key: 'tier', label: 'Tier', kind: 'tier' },
);

function TierCounts({ point }: { point: GlobalHistoryPoint | undefined }) {
  const order = useTierOrder(Object.keys(point?.tier_counts ?? {}));
  const counts = Object.entries(point?.tier_counts ?? {}).sort(([a], [b]) => order(a, b));
  if (counts.length === 0) return null;
  return (
    <ul className="tier-counts" aria-label="Countries per tier in the latest batch">
      {counts.map(([tier, count]) => (
        <li key={tier}>
          <TierBadge tier={tier} /> <span className="tier-count">{count}</span>
          <span className="visually-hidden"> {tierWord(tier)} countries</span>
        </li>
      ))}
    </ul>
  );
}

/** The global index over time (7 d / 30 d / 90 d / all, in the URL) with the latest tier counts. */
export function GlobalTrendPanel() {
  const query = useQuery(historyQueries.global());
  const points = query.data?.data.points;
  const { range, setRange, chartRows: rows, tableRows } = useTrendRows(points, TREND);

  return (
    <section className="panel trend-panel" aria-labelledby="global-trend-heading">
      <div className="panel-head">
        <h2 id="global-trend-heading">Global index trend</h2>
        <RangePicker value={range} onChange={setRange} label="Trend range" />
      </div>
      {query.isPending ? (
        <Skeleton label="Loading the trend" height={260} />
      ) : query.isError && !query.data ? (
        <QueryError
          what="The trend of the global index"
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
                ? `No batch recorded in the last ${RANGE_LABELS[range].toLowerCase()}.`
                : 'No history yet: the trend starts with the first recorded batch.'}
            </p>
          ) : (
            <TrendFrame
              label="Global index trend"
              viewParam="trend_view"
              columns={TREND.columns}
              rows={tableRows}
              filename={fileStem('global-index', range)}
              drawing="Drawing the trend"
              chartRows={rows}
              series={TREND.series}
              methodChanges={query.data.data.method_changes}
            />
          )}
        </>
      )}
    </section>
  );
}
