import type { CountryHistoryPoint } from '../../../../shared/history-api';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { TrendFrame } from '../../../components/trend-frame';
import { QueryError } from '../../../components/query-error';
import { Skeleton } from '../../../components/skeleton';
import { ApiError } from '../../../lib/api-client';
import { fileStem } from '../../../lib/csv';
import { historyQueries } from '../api/history-queries';
import { useTrendRows } from '../hooks/use-trend-rows';
import { describeLatestChange } from '../utils/drivers';
import { rangeLabel } from '../utils/range';
import { HistorySince } from './history-since';
import { RangePicker } from './range-picker';
import { scoreTrend } from '../../../components/lazy-trend-chart';
import { teamNameOf } from '../../../components/risk-index-switch';
import { useRiskIndex } from '../../../lib/risk-index';

const TREND = scoreTrend<CountryHistoryPoint, 'risk'>(
  { key: 'risk', label: 'Risk' },
  { key: 'tier', label: 'Tier', kind: 'tier' },
  { key: 'confidence', label: 'Confidence', kind: 'text' },
);

/** " “Logistics view”" when the team view's answer names its weights. */
function teamLabel(answer: unknown): string {
  const name = teamNameOf(answer);
  return name ? ` “${name}”` : '';
}

/** Risk, static and active of one country over time, over the tier bands, with what drove the
 * latest change in words. */
export function CountryTrendPanel({ iso }: { iso: string }) {
  const [index] = useRiskIndex();
  const query = useQuery(historyQueries.country(iso, index));
  const points = query.data?.data.points;
  const { range, setRange, chartRows: rows, tableRows } = useTrendRows(points, TREND);
  const methodChanges = query.data?.data.method_changes;
  const driver = useMemo(
    () => describeLatestChange(points ?? [], methodChanges),
    [points, methodChanges],
  );

  return (
    <section className="panel trend-panel" aria-labelledby="country-trend-heading">
      <div className="panel-head">
        <h2 id="country-trend-heading">
          {index === 'team' ? `Trend of the team index${teamLabel(query.data?.data)}` : 'Trend'}
        </h2>
        <RangePicker value={range} onChange={setRange} label="Trend range" />
      </div>
      {query.isPending ? (
        <Skeleton label="Loading the history" height={260} />
      ) : query.isError && !query.data ? (
        query.error instanceof ApiError && query.error.status === 404 ? (
          <p className="empty">No history is recorded for {iso}.</p>
        ) : (
          <QueryError
            what={`The history of ${iso}`}
            error={query.error}
            onRetry={() => void query.refetch()}
          />
        )
      ) : (
        <>
          <HistorySince
            coverage={query.data.data.coverage}
            firstSeen={query.data.data.first_seen}
            points={query.data.data.points.length}
          />
          <p className="driver">
            <strong>Latest change: </strong>
            {driver ?? 'only one batch recorded so far, so there is no change to explain yet.'}
          </p>
          {tableRows.length === 0 ? (
            <p className="empty">
              {points?.length
                ? `No batch with ${iso} in the last ${rangeLabel(range).toLowerCase()}.`
                : `No history recorded for ${iso} yet.`}
            </p>
          ) : (
            <TrendFrame
              label={`Trend of ${iso}`}
              viewParam="trend_view"
              columns={TREND.columns}
              rows={tableRows}
              filename={fileStem(iso, 'trend', range)}
              drawing="Drawing the trend"
              chartRows={rows}
              series={TREND.series}
              methodChanges={query.data.data.method_changes}
              bands
            />
          )}
        </>
      )}
    </section>
  );
}
