import { methodMarkSchema } from './method-api.js';
import { z } from 'zod/mini';
import { batchRefSchema } from './history-api.js';

/**
 * Why a country's score moved between two recorded batches (issue 22):
 * `GET /api/country/:iso/explain?from=&to=` (services/history/explain.ts). Without `from` the
 * batch before `to` is compared; without `to`, the newest batch.
 */
export const categoryDriverSchema = z.looseObject({
  category: z.string(),
  delta_score: z.nullable(z.number()),
  /** The category's weight in the newer batch (0.2 is 20 %). */
  weight: z.nullable(z.number()),
  delta_static: z.nullable(z.number()),
  delta_active: z.nullable(z.number()),
});
export type CategoryDriver = z.infer<typeof categoryDriverSchema>;

export const explainResponseSchema = z.looseObject({
  ok: z.literal(true),
  iso: z.string(),
  from_batch: batchRefSchema,
  to_batch: batchRefSchema,
  delta_risk: z.nullable(z.number()),
  delta_static: z.nullable(z.number()),
  delta_active: z.nullable(z.number()),
  /** Every category, largest absolute change of score first. */
  categories: z.array(categoryDriverSchema),
  /** The country's events after the older batch up to the newer one (the newest 100). */
  events: z.array(
    z.looseObject({
      ts: z.string(),
      headline: z.optional(z.nullable(z.string())),
      source: z.optional(z.nullable(z.string())),
      breaking: z.optional(z.nullable(z.boolean())),
    }),
  ),
  breaking_events: z.int(),
  /** The newer batch's confidence (0-100) and source count, as the provider sent them (issue 33). */
  confidence: z.optional(z.nullable(z.number())),
  source_count: z.optional(z.nullable(z.int())),
  /** "Risk +6.0: security +14.0 (weight 20 %), civil unrest +9.0 …; 3 breaking events since" */
  /** Method changes (not marked comparable) between the two batches: named first (issue 31). */
  method_changes: z.optional(z.array(methodMarkSchema)),
  sentence: z.string(),
  /** With `?index=team` (issue 31): the provider's own move, beside the team index's. */
  provider: z.optional(z.looseObject({ delta_risk: z.nullable(z.number()), sentence: z.string() })),
});
export type ExplainResponse = z.infer<typeof explainResponseSchema>;

/** The path asking why `iso` moved from the batch at `from` to the one at `to` (null: default). */
export function explainPath(iso: string, from: string | null, to: string | null): string {
  const params = new URLSearchParams();
  if (from !== null) params.set('from', from);
  if (to !== null) params.set('to', to);
  const query = params.toString();
  return `/api/country/${encodeURIComponent(iso)}/explain${query ? `?${query}` : ''}`;
}
