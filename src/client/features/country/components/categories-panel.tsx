import { useChartView, ViewToggle } from '../../../components/view-toggle';
import type { Categories } from '../../../../shared/schemas/category';
import { categoryRows } from '../utils/category-rows';
import { CategoriesChart } from './categories-chart';
import { CategoriesTable } from './categories-table';
import { t } from '../../../lib/i18n';

/**
 * Chart or table of the ten categories; the choice is in the URL (`?view=table`) like any view.
 * In the team view (`ourWeights`) the table gives our weight of each category beside the
 * provider's, each under its own name (issue 31).
 */
export function CategoriesPanel({
  categories,
  ourWeights = null,
}: {
  categories: Categories | null | undefined;
  ourWeights?: Readonly<Record<string, number>> | null;
}) {
  const [view, setView] = useChartView('view');
  const rows = categoryRows(categories, ourWeights);

  return (
    <section className="panel" aria-labelledby="categories-heading">
      <div className="panel-head">
        <h2 id="categories-heading">{t('categories.heading')}</h2>
        {rows.length > 0 ? (
          <ViewToggle label={t('categories.showAs')} view={view} onChange={setView} />
        ) : null}
      </div>
      {rows.length === 0 ? (
        <p className="empty">{t('categories.none')}</p>
      ) : view === 'table' ? (
        <CategoriesTable rows={rows} ours={ourWeights !== null} />
      ) : (
        <>
          <p className="panel-sub">{t('categories.sub')}</p>
          <div className="screen-only">
            <CategoriesChart rows={rows} />
          </div>
          {/* On paper the numbers (issue 33, point 9): the chart is drawn at the screen's column
              width, and printing lays the page out again without redrawing it, so it ran into
              the events beside it. */}
          <div className="print-only">
            <CategoriesTable rows={rows} ours={ourWeights !== null} />
          </div>
          <p className="visually-hidden">{t('chart.drawnForSighted')}</p>
        </>
      )}
    </section>
  );
}
