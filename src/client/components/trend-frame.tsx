import { Suspense, useEffect, useMemo, type ComponentProps } from 'react';
import { ChartFrame } from './chart-frame';
import { LazyTrendChart, loadTrendChart } from './lazy-trend-chart';
import { Skeleton } from './skeleton';
import { WhenNear } from './when-near';
import type { MethodMark } from '../../shared/method-api';
import { formatUtcDateTime } from '../lib/format';
import type { TrendRow, TrendSeries } from './trend-chart';
import { t } from '../lib/i18n';

const NO_METHOD_CHANGES: readonly MethodMark[] = [];

/**
 * A trend in its chart frame (chart or table, CSV download): the chart is the lazily loaded
 * trend chart, drawn when scrolled near (WhenNear), with a skeleton of its height, saying
 * `drawing`, while its chunk loads.
 */
export function TrendFrame({
  drawing,
  chartRows,
  series,
  bands,
  height = 260,
  methodChanges = NO_METHOD_CHANGES,
  ...frame
}: Omit<ComponentProps<typeof ChartFrame>, 'chart'> & {
  drawing: string;
  chartRows: readonly TrendRow[];
  series: TrendSeries[];
  /** The tier bands behind the lines (scores on the fixed 0–100 scale). */
  bands?: boolean;
  height?: number;
  /** The provider's method changes (issue 31): a labelled rule on the chart, words below it. */
  methodChanges?: readonly MethodMark[];
}) {
  const first = chartRows[0]?.t ?? Infinity;
  const last = chartRows.at(-1)?.t ?? -Infinity;
  // Kept while the rows and changes are: the chart is memoised on its props. (A language change
  // remakes the page, so the marks' words follow it.)
  const shown = useMemo(
    () =>
      methodChanges.filter((c) => {
        const at = Date.parse(c.as_of);
        return at >= first && at <= last;
      }),
    [methodChanges, first, last],
  );
  const marks = useMemo(
    () =>
      shown.map((c) => ({
        t: Date.parse(c.as_of),
        label: t('chart.methodMark', { version: c.to }),
      })),
    [shown],
  );
  // The chunk is fetched now, as before the chart waited to be scrolled near: when it is, or
  // when the page is printed, it is drawn at once.
  useEffect(() => {
    // A chunk that fails to load is reported by the chart, when it is drawn.
    loadTrendChart().catch(() => {});
  }, []);
  return (
    <>
      <ChartFrame
        {...frame}
        chart={
          <WhenNear height={height}>
            <Suspense fallback={<Skeleton label={drawing} height={height} />}>
              <LazyTrendChart
                rows={chartRows}
                series={series}
                bands={bands}
                height={height}
                marks={marks}
              />
            </Suspense>
          </WhenNear>
        }
      />
      {shown.map((c) => (
        <p key={c.as_of} className="method-change-note" role="note">
          <strong>{t('chart.methodChanged')}</strong>
          {t('chart.methodChangedOn', {
            date: formatUtcDateTime(c.as_of),
            from: c.from,
            to: c.to,
          })}
          {c.comparable ? t('chart.methodComparable') : t('chart.methodNotComparable')}
        </p>
      ))}
    </>
  );
}
