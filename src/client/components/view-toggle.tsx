import { useSearchParams } from 'react-router';
import { t } from '../lib/i18n';

export type ChartView = 'chart' | 'table';

/** A chart's view, held in the URL (`?<param>=table`) like every view; the chart is the default. */
export function useChartView(param: string): [ChartView, (next: ChartView) => void] {
  const [params, setParams] = useSearchParams();
  const view = params.get(param) === 'table' ? 'table' : 'chart';
  const setView = (next: ChartView) =>
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (next === 'table') updated.set(param, 'table');
        else updated.delete(param);
        return updated;
      },
      { replace: true, preventScrollReset: true, flushSync: true },
    );
  return [view, setView];
}

/** The Chart / Table buttons; `label` names what is shown ("Show categories as"). */
export function ViewToggle({
  label,
  view,
  onChange,
}: {
  label: string;
  view: ChartView;
  onChange: (next: ChartView) => void;
}) {
  return (
    <div className="segmented" role="group" aria-label={label}>
      <button type="button" aria-pressed={view === 'chart'} onClick={() => onChange('chart')}>
        {t('chart.chart')}
      </button>
      <button type="button" aria-pressed={view === 'table'} onClick={() => onChange('table')}>
        {t('chart.table')}
      </button>
    </div>
  );
}
