import type { CountryHistoryPoint } from '../../../../shared/history-api';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { TrendFrame } from '../../../components/trend-frame';
import { QueryError } from '../../../components/query-error';
import { Skeleton } from '../../../components/skeleton';
import { ApiError } from '../../../lib/api-client';
import { fileStem } from '../../../lib/csv';
import { historyQueries } from '../api/history-queries';
import { useTrendRows } from '../hooks/use-trend-rows';
import { latestChange, type LatestChange } from '../utils/drivers';
import { rangeLabel } from '../utils/range';
import { HistorySince } from './history-since';
import { RangePicker } from './range-picker';
import { scoreTrend } from '../../../components/lazy-trend-chart';
import { teamNameOf } from '../../../components/risk-index-switch';
import { useRiskIndex } from '../../../lib/risk-index';
import { t } from '../../../lib/i18n';

// Made when the panel mounts (the page is remade when its language changes), not at import.
const makeTrend = () =>
  scoreTrend<CountryHistoryPoint, 'risk'>(
    { key: 'risk', label: t('table.risk') },
    { key: 'tier', label: t('table.tier'), kind: 'tier' },
    { key: 'confidence', label: t('table.confidence'), kind: 'text' },
  );

/** "Trend of the team index “Logistics view”" when the team view's answer names its weights. */
function teamHeading(answer: unknown): string {
  const name = teamNameOf(answer);
  return name ? t('countryTrend.teamHeadingNamed', { name }) : t('countryTrend.teamHeading');
}

/** The latest change's words; the categories' names are the upstream's, marked as such. */
function DriverWords({ change }: { change: LatestChange }) {
  if (change.moves.length === 0) return <>{`${change.lead}${t('latestChange.noCategory')}`}</>;
  return (
    <>
      {`${change.lead}${t('latestChange.categoriesLead')}`}
      {change.moves.map((move, i) => (
        <span key={move.category}>
          {i > 0 ? t('latestChange.join') : ''}
          <span translate="no">{move.category}</span> {move.change}
        </span>
      ))}
    </>
  );
}

/** Risk, static and active of one country over time, over the tier bands, with what drove the
 * latest change in words. */
export function CountryTrendPanel({ iso }: { iso: string }) {
  const [index] = useRiskIndex();
  const query = useQuery(historyQueries.country(iso, index));
  const points = query.data?.data.points;
  const [trend] = useState(makeTrend);
  const { range, setRange, chartRows: rows, tableRows } = useTrendRows(points, trend);
  const methodChanges = query.data?.data.method_changes;
  const driver = useMemo(() => latestChange(points ?? [], methodChanges), [points, methodChanges]);

  return (
    <section className="panel trend-panel" aria-labelledby="country-trend-heading">
      <div className="panel-head">
        <h2 id="country-trend-heading">
          {index === 'team' ? teamHeading(query.data?.data) : t('countryTrend.heading')}
        </h2>
        <RangePicker value={range} onChange={setRange} label={t('trend.range')} />
      </div>
      {query.isPending ? (
        <Skeleton label={t('countryTrend.loading')} height={260} />
      ) : query.isError && !query.data ? (
        query.error instanceof ApiError && query.error.status === 404 ? (
          <p className="empty">{t('countryTrend.noHistory404', { iso })}</p>
        ) : (
          <QueryError
            what={t('countryTrend.error', { iso })}
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
            <strong>{t('countryTrend.latestChange')}</strong>
            {driver ? <DriverWords change={driver} /> : t('countryTrend.onlyOne')}
          </p>
          {tableRows.length === 0 ? (
            <p className="empty">
              {points?.length
                ? t('countryTrend.noBatchInRange', {
                    iso,
                    range: rangeLabel(range).toLowerCase(),
                  })
                : t('countryTrend.noHistory', { iso })}
            </p>
          ) : (
            <TrendFrame
              label={t('countryTrend.label', { iso })}
              viewParam="trend_view"
              columns={trend.columns}
              rows={tableRows}
              filename={fileStem(iso, 'trend', range)}
              drawing={t('trend.drawing')}
              chartRows={rows}
              series={trend.series}
              methodChanges={query.data.data.method_changes}
              bands
            />
          )}
        </>
      )}
    </section>
  );
}
