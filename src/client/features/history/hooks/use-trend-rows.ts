import { useMemo } from 'react';
import type { TrendRange } from '../utils/range';
import { sliceRange } from '../utils/range';
import { useTrendRange } from './use-trend-range';

/**
 * The points of the range in the URL (`?trend=`), as the chart's rows and as the table's, with
 * the range and its setter: the mappers are module-level (`scoreTrend`), so the rows are rebuilt
 * only when the points or the range change.
 */
export function useTrendRows<P extends { as_of: string }, Chart, Table>(
  points: readonly P[] | undefined,
  trend: { chartRow: (point: P) => Chart; tableRow: (point: P) => Table },
): {
  range: TrendRange;
  setRange: (range: TrendRange) => void;
  chartRows: Chart[];
  tableRows: Table[];
} {
  const [range, setRange] = useTrendRange('trend');
  const { chartRow, tableRow } = trend;
  const shown = useMemo(() => sliceRange(points ?? [], range), [points, range]);
  const chartRows = useMemo(() => shown.map(chartRow), [shown, chartRow]);
  const tableRows = useMemo(() => shown.map(tableRow), [shown, tableRow]);
  return { range, setRange, chartRows, tableRows };
}
