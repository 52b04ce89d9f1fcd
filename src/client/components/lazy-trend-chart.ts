import { lazy, memo } from 'react';
import type { SeriesColumn, SeriesRow } from '../lib/csv';
import type { TrendChart, TrendRow, TrendSeries } from './trend-chart';
import { t } from '../lib/i18n';

type ChartModule = { TrendChart: typeof TrendChart };
let loaded: ChartModule | null = null;
let loading: Promise<ChartModule> | null = null;

/** Starts loading the trend chart's chunk (once); TrendFrame asks for it as the page loads. */
export function loadTrendChart(): Promise<ChartModule> {
  loading ??= import('./trend-chart').then((module) => (loaded = module));
  return loading;
}

/**
 * The trend chart as its own chunk: recharts stays out of the overview's initial JavaScript
 * (its budget), and every page that draws a trend shares the one chunk. Memoised: a filter or
 * range elsewhere on the page changes the URL, which re-renders every panel that reads it, and
 * redrawing an unchanged chart was most of a tier click's 376 ms on a phone (issue 32).
 *
 * Once the chunk is here, the loader answers with a thenable that calls back at once, and
 * React.lazy (which reads its loader's `then` as it is called) draws the chart in the same
 * render rather than its skeleton first: a chart drawn as printing begins (WhenNear) is on the
 * paper. A React that waited anyway would print the skeleton; the print test would say so.
 */
export const LazyTrendChart = memo(
  lazy(() => {
    const chart = loaded;
    if (!chart) return loadTrendChart().then((module) => ({ default: module.TrendChart }));
    const now = {
      then: (settle: (value: { default: typeof TrendChart }) => void) =>
        settle({ default: chart.TrendChart }),
    };
    return now as unknown as Promise<{ default: typeof TrendChart }>;
  }),
);

/**
 * A score's three lines, drawn the same on every trend: the headline score (the country's risk,
 * the global index, a category's score) thick, its static part dashed, its active part plain.
 * Colours from the Okabe–Ito palette, which stays distinct for the common colour-vision deficiencies.
 */
export function scoreSeries(headline: { key: string; label: string }): TrendSeries[] {
  return [
    { ...headline, colour: '#cc79a7', width: 3 },
    { key: 'static', label: t('chart.static'), colour: '#0072b2', dash: '6 3' },
    { key: 'active', label: t('chart.active'), colour: '#d55e00' },
  ];
}

/**
 * A score trend's table and CSV columns, in the order of its lines: the batch, the headline
 * score, its static and active parts; then the trend's `own` columns.
 */
function scoreColumns(
  headline: { key: string; label: string },
  ...own: SeriesColumn[]
): SeriesColumn[] {
  return [
    { key: 'as_of', label: t('chart.batchUtc'), kind: 'time' },
    { ...headline, kind: 'score' },
    { key: 'static', label: t('chart.static'), kind: 'score' },
    { key: 'active', label: t('chart.active'), kind: 'score' },
    ...own,
  ];
}

/** A recorded point of a score trend: its batch time, and its static and active parts. */
type ScorePoint = { as_of: string; static: number | null; active: number | null };

/** The chart row of a point for scoreSeries({ key: headline }): its time and its three scores. */
function scoreChartRow<P extends ScorePoint & Record<H, number | null>, H extends string>(
  headline: H,
): (point: P) => TrendRow {
  return (point) => ({
    t: Date.parse(point.as_of),
    [headline]: point[headline],
    static: point.static,
    active: point.active,
  });
}

/** The table row of a point: its value of each of the table's columns. */
function columnValues<P extends object>(columns: readonly SeriesColumn[]): (point: P) => SeriesRow {
  return (point) => {
    const values = point as Record<string, SeriesRow[string]>;
    return Object.fromEntries(columns.map(({ key }) => [key, values[key]]));
  };
}

/** What a score trend draws and tabulates: its table columns, its lines, and the row mappers. */
export interface ScoreTrend<P> {
  columns: SeriesColumn[];
  series: TrendSeries[];
  chartRow: (point: P) => TrendRow;
  tableRow: (point: P) => SeriesRow;
}

/**
 * A score trend from its headline score (the country's risk, the global index) and its own
 * columns after the three scores: the columns, lines and row mappers, defined once at module
 * level so the rows are rebuilt only when the points change.
 */
export function scoreTrend<P extends ScorePoint & Record<H, number | null>, H extends string>(
  headline: { key: H; label: string },
  ...own: SeriesColumn[]
): ScoreTrend<P> {
  const columns = scoreColumns(headline, ...own);
  return {
    columns,
    series: scoreSeries(headline),
    chartRow: scoreChartRow<P, H>(headline.key),
    tableRow: columnValues<P>(columns),
  };
}
