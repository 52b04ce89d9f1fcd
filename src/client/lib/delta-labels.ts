/*
 * Two sources of change figures, each labelled with its period and origin wherever it shows (issue
 * 19, point 3): the upstream's own fields (`delta_headline`, `delta_active`: its batch against its
 * previous one), and differences between batches recorded here (What changed, Compare). The two
 * can differ (the upstream may have published a batch the BFF never recorded), so a figure never
 * carries the other's label.
 */

/** The upstream's period: its previous batch, 7 to 17 hours earlier on the documented schedule. */
export const UPSTREAM_DELTA_PERIOD =
  'since the previous batch (7 to 17 hours earlier), as the upstream reports it';

/** Header titles of the tables' Δ columns (the upstream's fields). */
export const UPSTREAM_DELTA_TITLE = {
  risk: `Change of the risk score ${UPSTREAM_DELTA_PERIOD}`,
  active: `Change of the active score ${UPSTREAM_DELTA_PERIOD}`,
} as const;

/** The note under a table with the upstream's Δ columns. */
export const UPSTREAM_DELTA_NOTE = `Δ: change ${UPSTREAM_DELTA_PERIOD}; What changed compares the batches recorded here.`;

/** What changed's and Compare's figures: differences between batches this dashboard recorded. */
export const RECORDED_DELTA_SOURCE = 'between batches recorded by this dashboard';

/** The headline Δ risk column (issue 33): ours where recorded, else the provider's, marked. */
export const RECORDED_DELTA_TITLE =
  "Change of the risk score since the previous batch recorded here; marked * where only the provider's own figure exists";

/** The note under a table whose Δ risk is the headline change. */
export const HEADLINE_DELTA_NOTE =
  "Δ risk: change since the previous batch recorded here, or the provider's own figure (marked *, period not stated) where that batch is not recorded; Δ active: the provider's own figure.";
