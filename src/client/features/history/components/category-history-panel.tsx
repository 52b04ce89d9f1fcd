import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { TrendFrame } from '../../../components/trend-frame';
import { fileStem, type SeriesColumn } from '../../../lib/csv';
import { humanise } from '../../../lib/format';
import { historyQueries } from '../api/history-queries';
import { useTrendRange } from '../hooks/use-trend-range';
import { sliceRange } from '../utils/range';
import { scoreSeries } from '../../../components/lazy-trend-chart';
import { SelectField } from '../../../components/select-field';
import { t } from '../../../lib/i18n';

// Made when drawn, in the page's language.
const scoreLines = () => scoreSeries({ key: 'score', label: t('categories.score') });

/**
 * One category's score, static and active part over time; the category is picked from a list
 * (in the URL as `?cat=security`; by default the highest-scoring category of the latest batch).
 * Shares the trend's range and its cached history.
 */
export function CategoryHistoryPanel({ iso }: { iso: string }) {
  const query = useQuery(historyQueries.country(iso));
  const [range] = useTrendRange('trend');
  const [params, setParams] = useSearchParams();
  const points = query.data?.data.points;
  const categories = useMemo(() => {
    const latest = [...(points ?? [])].reverse().find((p) => p.categories)?.categories ?? {};
    return Object.entries(latest)
      .sort(([, a], [, b]) => (b.score ?? -1) - (a.score ?? -1))
      .map(([key]) => key);
  }, [points]);
  const wanted = params.get('cat');
  const category = wanted && categories.includes(wanted) ? wanted : categories[0];
  const setCategory = useCallback(
    (next: string) =>
      setParams(
        (current) => {
          const updated = new URLSearchParams(current);
          updated.set('cat', next);
          return updated;
        },
        { replace: true, preventScrollReset: true, flushSync: true },
      ),
    [setParams],
  );
  const shown = useMemo(() => sliceRange(points ?? [], range), [points, range]);
  const tableRows = useMemo(
    () =>
      category === undefined
        ? []
        : shown.map((p) => {
            const value = p.categories?.[category];
            return {
              as_of: p.as_of,
              score: value?.score ?? null,
              static: value?.static ?? null,
              active: value?.active ?? null,
            };
          }),
    [shown, category],
  );
  const rows = useMemo(
    () => tableRows.map(({ as_of: asOf, ...values }) => ({ t: Date.parse(asOf), ...values })),
    [tableRows],
  );

  if (!query.data || category === undefined) {
    // The trend panel above shows loading, errors and empty history; nothing to add here.
    if (query.data) {
      return (
        <section className="panel" aria-labelledby="category-history-heading">
          <h2 id="category-history-heading">{t('categoryHistory.heading')}</h2>
          <p className="empty">{t('categoryHistory.none', { iso })}</p>
        </section>
      );
    }
    return null;
  }
  const label = humanise(category);
  const columns: SeriesColumn[] = [
    { key: 'as_of', label: t('chart.batchUtc'), kind: 'time' },
    { key: 'score', label: t('categoryHistory.score', { label }), kind: 'score' },
    { key: 'static', label: t('categoryHistory.static', { label }), kind: 'score' },
    { key: 'active', label: t('categoryHistory.active', { label }), kind: 'score' },
  ];
  return (
    <section className="panel" aria-labelledby="category-history-heading">
      <div className="panel-head">
        <h2 id="category-history-heading">{t('categoryHistory.heading')}</h2>
        <SelectField label={t('categoryHistory.category')} value={category} onChange={setCategory}>
          {categories.map((key) => (
            <option key={key} value={key}>
              {humanise(key)}
            </option>
          ))}
        </SelectField>
      </div>
      <TrendFrame
        label={t('categoryHistory.label', { label, iso })}
        viewParam="cat_view"
        columns={columns}
        rows={tableRows}
        filename={fileStem(iso, category, range)}
        drawing={t('categoryHistory.drawing')}
        chartRows={rows}
        series={scoreLines()}
        height={220}
      />
    </section>
  );
}
