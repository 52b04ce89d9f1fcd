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

const SERIES = scoreSeries({ key: 'score', label: 'Score' });

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
          <h2 id="category-history-heading">Category history</h2>
          <p className="empty">No category scores were recorded for {iso}.</p>
        </section>
      );
    }
    return null;
  }
  const label = humanise(category);
  const columns: SeriesColumn[] = [
    { key: 'as_of', label: 'Batch (UTC)', kind: 'time' },
    { key: 'score', label: `${label} score`, kind: 'score' },
    { key: 'static', label: `${label} static`, kind: 'score' },
    { key: 'active', label: `${label} active`, kind: 'score' },
  ];
  return (
    <section className="panel" aria-labelledby="category-history-heading">
      <div className="panel-head">
        <h2 id="category-history-heading">Category history</h2>
        <SelectField label="Category" value={category} onChange={setCategory}>
          {categories.map((key) => (
            <option key={key} value={key}>
              {humanise(key)}
            </option>
          ))}
        </SelectField>
      </div>
      <TrendFrame
        label={`${label} history of ${iso}`}
        viewParam="cat_view"
        columns={columns}
        rows={tableRows}
        filename={fileStem(iso, category, range)}
        drawing="Drawing the category history"
        chartRows={rows}
        series={SERIES}
        height={220}
      />
    </section>
  );
}
