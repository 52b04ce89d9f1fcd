import { Suspense, type ComponentProps } from 'react';
import { ChartFrame } from './chart-frame';
import { LazyTrendChart } from './lazy-trend-chart';
import { Skeleton } from './skeleton';
import type { TrendRow, TrendSeries } from './trend-chart';

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
  ...frame
}: Omit<ComponentProps<typeof ChartFrame>, 'chart'> & {
  drawing: string;
  chartRows: readonly TrendRow[];
  series: TrendSeries[];
  /** The tier bands behind the lines (scores on the fixed 0–100 scale). */
  bands?: boolean;
  height?: number;
}) {
  return (
    <ChartFrame
      {...frame}
      chart={
        <Suspense fallback={<Skeleton label={drawing} height={height} />}>
          <LazyTrendChart rows={chartRows} series={series} bands={bands} height={height} />
        </Suspense>
      }
    />
  );
}
