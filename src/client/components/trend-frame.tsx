import { Suspense, useMemo, type ComponentProps } from 'react';
import { ChartFrame } from './chart-frame';
import { LazyTrendChart } from './lazy-trend-chart';
import { Skeleton } from './skeleton';
import type { MethodMark } from '../../shared/method-api';
import { formatUtcDateTime } from '../lib/format';
import type { TrendRow, TrendSeries } from './trend-chart';

const NO_METHOD_CHANGES: readonly MethodMark[] = [];

/**
 * A trend in its chart frame (chart or table, CSV download): the chart is the lazily loaded
 * trend chart, with a skeleton of its height, saying `drawing`, while its chunk loads.
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
  // Kept while the rows and changes are: the chart is memoised on its props.
  const shown = useMemo(
    () =>
      methodChanges.filter((c) => {
        const t = Date.parse(c.as_of);
        return t >= first && t <= last;
      }),
    [methodChanges, first, last],
  );
  const marks = useMemo(
    () => shown.map((c) => ({ t: Date.parse(c.as_of), label: `Method ${c.to}` })),
    [shown],
  );
  return (
    <>
      <ChartFrame
        {...frame}
        chart={
          <Suspense fallback={<Skeleton label={drawing} height={height} />}>
            <LazyTrendChart
              rows={chartRows}
              series={series}
              bands={bands}
              height={height}
              marks={marks}
            />
          </Suspense>
        }
      />
      {shown.map((c) => (
        <p key={c.as_of} className="method-change-note" role="note">
          <strong>Method changed</strong> on {formatUtcDateTime(c.as_of)}: the provider moved from{' '}
          {c.from} to {c.to}.{' '}
          {c.comparable
            ? 'An admin marked the scores comparable across it.'
            : 'Scores before and after it are not comparable: a step there is not a move of the world.'}
        </p>
      ))}
    </>
  );
}
