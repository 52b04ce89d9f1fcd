import { bffQueries } from '../../../lib/bff-queries';

/**
 * The recorded history, whole (one definition per URL, shared with compare, watchlists and the
 * brief: lib/bff-queries). The 7 d / 30 d / 90 d views slice it in the browser.
 */
export const historyQueries = {
  all: () => ['history'] as const,
  global: bffQueries.historyGlobal,
  /** Callers pass a validated, upper-cased code (see shared/iso). */
  country: bffQueries.historyCountry,
};
