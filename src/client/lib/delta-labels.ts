import { t } from './i18n';

/*
 * Two sources of change figures, each labelled with its period and origin wherever it shows (issue
 * 19, point 3): the upstream's own fields (`delta_headline`, `delta_active`: its batch against its
 * previous one), and differences between batches recorded here (What changed, Compare). The two
 * can differ (the upstream may have published a batch the BFF never recorded), so a figure never
 * carries the other's label. Functions, not constants: the words follow the page's language.
 */

/** The upstream's period: its previous batch, 7 to 17 hours earlier on the documented schedule. */
export const upstreamDeltaPeriod = (): string => t('delta.upstreamPeriod');

/** Header titles of the tables' Δ columns (the upstream's fields). */
export const upstreamDeltaTitle = {
  risk: (): string => t('table.changeOfRisk', { period: upstreamDeltaPeriod() }),
  active: (): string => t('table.changeOfActive', { period: upstreamDeltaPeriod() }),
} as const;

/** The note under a table with the upstream's Δ columns. */
export const upstreamDeltaNote = (): string =>
  t('table.upstreamNote', { period: upstreamDeltaPeriod() });

/** What changed's and Compare's figures: differences between batches this dashboard recorded. */
export const recordedDeltaSource = (): string => t('table.recordedSource');

/** The headline Δ risk column (issue 33): ours where recorded, else the provider's, marked. */
export const recordedDeltaTitle = (): string => t('table.recordedTitle');

/** The note under a table whose Δ risk is the headline change. */
export const headlineDeltaNote = (): string => t('table.headlineNote');
