import { useSearchParams } from 'react-router';
import type { Categories } from '../../../../shared/schemas/category';
import { categoryRows } from '../utils/category-rows';
import { CategoriesChart } from './categories-chart';
import { CategoriesTable } from './categories-table';

/** Chart or table of the ten categories; the choice is in the URL (`?view=table`) like any view. */
export function CategoriesPanel({ categories }: { categories: Categories | null | undefined }) {
  const [params, setParams] = useSearchParams();
  const view = params.get('view') === 'table' ? 'table' : 'chart';
  const rows = categoryRows(categories);

  const setView = (next: 'chart' | 'table') =>
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (next === 'table') updated.set('view', 'table');
        else updated.delete('view');
        return updated;
      },
      { replace: true, preventScrollReset: true, flushSync: true },
    );

  return (
    <section className="panel" aria-labelledby="categories-heading">
      <div className="panel-head">
        <h2 id="categories-heading">Categories</h2>
        {rows.length > 0 ? (
          <div className="segmented" role="group" aria-label="Show categories as">
            <button type="button" aria-pressed={view === 'chart'} onClick={() => setView('chart')}>
              Chart
            </button>
            <button type="button" aria-pressed={view === 'table'} onClick={() => setView('table')}>
              Table
            </button>
          </div>
        ) : null}
      </div>
      {rows.length === 0 ? (
        <p className="empty">No category scores in the current data for this country.</p>
      ) : view === 'table' ? (
        <CategoriesTable rows={rows} />
      ) : (
        <>
          <p className="panel-sub">
            Score per category, split into static and active parts; weight in brackets. Highest
            first.
          </p>
          <CategoriesChart rows={rows} />
          <p className="visually-hidden">
            The chart is drawn for sighted readers; choose Table for the same numbers.
          </p>
        </>
      )}
    </section>
  );
}
