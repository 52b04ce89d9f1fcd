import { lazy } from 'react';
import type { TrendSeries } from './trend-chart';

/**
 * The trend chart as its own chunk: recharts stays out of the overview's initial JavaScript
 * (its budget), and every page that draws a trend shares the one chunk.
 */
export const LazyTrendChart = lazy(async () => ({
  default: (await import('./trend-chart')).TrendChart,
}));

/**
 * A score's three lines, drawn the same on every trend: the headline score (the country's risk,
 * the global index, a category's score) thick, its static part dashed, its active part plain.
 * Colours from the Okabe–Ito palette, which stays distinct for the common colour-vision deficiencies.
 */
export function scoreSeries(headline: { key: string; label: string }): TrendSeries[] {
  return [
    { ...headline, colour: '#cc79a7', width: 3 },
    { key: 'static', label: 'Static', colour: '#0072b2', dash: '6 3' },
    { key: 'active', label: 'Active', colour: '#d55e00' },
  ];
}
