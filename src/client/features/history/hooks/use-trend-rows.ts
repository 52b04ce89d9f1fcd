import { useMemo } from 'react';
import type { TrendRange } from '../utils/range';
import { sliceRange } from '../utils/range';

/**
 * The points of the chosen range, as the chart's rows and as the table's: both mappers are
 * module-level functions, so the rows are rebuilt only when the points or the range change.
 */
export function useTrendRows<P extends { as_of: string }, Chart, Table>(
  points: readonly P[] | undefined,
  range: TrendRange,
  chartRow: (point: P) => Chart,
  tableRow: (point: P) => Table,
): { chartRows: Chart[]; tableRows: Table[] } {
  const shown = useMemo(() => sliceRange(points ?? [], range), [points, range]);
  const chartRows = useMemo(() => shown.map(chartRow), [shown, chartRow]);
  const tableRows = useMemo(() => shown.map(tableRow), [shown, tableRow]);
  return { chartRows, tableRows };
}
