import { z } from 'zod/mini';
import { optionalNumber } from './common.js';

export const categoryScoreSchema = z.looseObject({
  score: optionalNumber,
  static: optionalNumber,
  active: optionalNumber,
  weight: optionalNumber,
});
export type CategoryScore = z.infer<typeof categoryScoreSchema>;

/** Keyed by category name; the ten documented names are expected, others are kept. */
export const categoriesSchema = z.record(z.string(), categoryScoreSchema);
export type Categories = z.infer<typeof categoriesSchema>;
