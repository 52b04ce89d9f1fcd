import { z } from 'zod/mini';
import { optionalInteger, optionalNumber, optionalString } from './common.js';

/**
 * The global summary. The document prints the index field's name as "the service"; the demo
 * upstream calls it `ggri`, and `index` is the accepted fallback (docs/upstream-gaps.md).
 */
export const globalSummarySchema = z.looseObject({
  ggri: optionalNumber,
  index: optionalNumber,
  tier: optionalString,
  delta_vs_yesterday: optionalNumber,
  static: optionalNumber,
  active: optionalNumber,
  events_24h: optionalInteger,
});
export type GlobalSummary = z.infer<typeof globalSummarySchema>;

/** The global index value, or null when the upstream sent neither known field. */
export function globalIndexValue(global: GlobalSummary | null | undefined): number | null {
  return global?.ggri ?? global?.index ?? null;
}
