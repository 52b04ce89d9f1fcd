import { useMemo } from 'react';
import type { ExposureResponse } from '../../../../shared/sites-api';
import { scoreSeries } from '../../../components/lazy-trend-chart';
import { TrendFrame } from '../../../components/trend-frame';
import type { SeriesColumn } from '../../../lib/csv';
import { fileStem } from '../../../lib/csv';
import { t } from '../../../lib/i18n';
import { indexLabel } from './exposure-by-tier';

/**
 * The exposure index at every recorded batch (the BFF recomputes it from the stored batches,
 * so a fresh import already has the whole history), on the tier bands: it is a mean country
 * risk, on the same 0–100 scale. Below the site page's first screen on a phone: drawn when
 * scrolled near, as the overview's trend is (TrendFrame).
 */
export function ExposureTrend({ answer }: { answer: ExposureResponse }) {
  const points = answer.index.trend;
  const label = indexLabel(answer.weight);
  const columns: SeriesColumn[] = [
    { key: 'as_of', label: t('chart.batchUtc'), kind: 'time' },
    { key: 'index', label, kind: 'score' },
  ];
  // Only the headline line of the three score lines: the index has no static and active parts.
  // Made here, not at import, so its legend is in the page's language.
  const series = useMemo(
    () => scoreSeries({ key: 'index', label: t('exposurePage.index') }).slice(0, 1),
    [],
  );
  return (
    <section className="panel trend-panel exposure-trend" aria-labelledby="exposure-trend-heading">
      <div className="panel-head">
        <h2 id="exposure-trend-heading">{t('exposurePage.trendHeading')}</h2>
      </div>
      {points.length === 0 ? (
        <p className="empty">{t('trend.noHistory')}</p>
      ) : (
        <TrendFrame
          label={label}
          viewParam="index_view"
          columns={columns}
          rows={points.map((p) => ({ as_of: p.as_of, index: p.index }))}
          filename={fileStem('exposure-index', answer.weight)}
          drawing={t('trend.drawing')}
          chartRows={points.map((p) => ({ t: Date.parse(p.as_of), index: p.index }))}
          series={series}
          bands
        />
      )}
    </section>
  );
}
