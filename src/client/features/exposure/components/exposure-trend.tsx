import { Suspense } from 'react';
import type { ExposureResponse } from '../../../../shared/sites-api';
import { ChartFrame } from '../../../components/chart-frame';
import { LazyTrendChart, scoreSeries } from '../../../components/lazy-trend-chart';
import { Skeleton } from '../../../components/skeleton';
import type { SeriesColumn } from '../../../lib/csv';
import { fileStem } from '../../../lib/csv';

// Only the headline line of the three score lines: the index has no static and active parts.
const SERIES = scoreSeries({ key: 'index', label: 'Exposure index' }).slice(0, 1);

/**
 * The exposure index at every recorded batch (the BFF recomputes it from the stored batches,
 * so a fresh import already has the whole history), on the tier bands: it is a mean country
 * risk, on the same 0–100 scale.
 */
export function ExposureTrend({ answer }: { answer: ExposureResponse }) {
  const points = answer.index.trend;
  const label = `Exposure index (${answer.weight}-weighted)`;
  const columns: SeriesColumn[] = [
    { key: 'as_of', label: 'Batch (UTC)', kind: 'time' },
    { key: 'index', label, kind: 'score' },
  ];
  return (
    <section className="panel trend-panel exposure-trend" aria-labelledby="exposure-trend-heading">
      <div className="panel-head">
        <h2 id="exposure-trend-heading">Exposure index over the stored history</h2>
      </div>
      {points.length === 0 ? (
        <p className="empty">No history yet: the trend starts with the first recorded batch.</p>
      ) : (
        <ChartFrame
          label={label}
          viewParam="index_view"
          columns={columns}
          rows={points.map((p) => ({ as_of: p.as_of, index: p.index }))}
          filename={fileStem('exposure-index', answer.weight)}
          chart={
            <Suspense fallback={<Skeleton label="Drawing the trend" height={260} />}>
              <LazyTrendChart
                rows={points.map((p) => ({ t: Date.parse(p.as_of), index: p.index }))}
                series={SERIES}
                bands
              />
            </Suspense>
          }
        />
      )}
    </section>
  );
}
