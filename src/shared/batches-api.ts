import { z } from 'zod/mini';
import { countriesResponseSchema } from './bff-api.js';
import { categoriesSchema } from './schemas/category.js';
import { countryResponseSchema, hotspotsResponseSchema } from './schemas/responses.js';

/**
 * Citable batches (issue 22): `/api/batches*`. Each recorded batch has an `id`, the SHA-256 (hex)
 * of `<previous batch's id>\n<canonical JSON of its content>` (shared/canonical-json.ts), the
 * first batch's previous id being 64 zeros. Anyone holding a batch's content and the id before
 * it can recompute its id; a changed or missing batch breaks the chain from there on.
 * Times are ISO 8601 UTC strings.
 */

export const GENESIS_ID = '0'.repeat(64);
export const BATCH_ID_PATTERN = /^[0-9a-f]{64}$/;
export const BATCHES_PAGE_DEFAULT = 100;
export const BATCHES_PAGE_MAX = 500;

/** One country row of a batch, as its id covers it. */
export const batchCountrySchema = z.looseObject({
  iso: z.string(),
  name: z.nullable(z.string()),
  risk: z.nullable(z.number()),
  tier: z.nullable(z.string()),
  static: z.nullable(z.number()),
  active: z.nullable(z.number()),
  delta_active: z.nullable(z.number()),
  delta_headline: z.nullable(z.number()),
  confidence: z.nullable(z.number()),
  profile: z.nullable(z.string()),
  threat_vectors: z.nullable(z.array(z.string())),
  source_count: z.nullable(z.int()),
  categories: z.nullable(categoriesSchema),
});
export type BatchCountry = z.infer<typeof batchCountrySchema>;

/** What a batch's id is a digest of: its global numbers and every country row (sorted by iso). */
export const batchContentSchema = z.looseObject({
  as_of: z.string(),
  methodology_version: z.nullable(z.string()),
  global: z.looseObject({
    index: z.nullable(z.number()),
    static: z.nullable(z.number()),
    active: z.nullable(z.number()),
    events_24h: z.nullable(z.int()),
    tier: z.nullable(z.string()),
    tier_counts: z.nullable(z.record(z.string(), z.number())),
    /** The upstream's global summary as received. */
    received: z.nullable(z.record(z.string(), z.unknown())),
  }),
  countries: z.array(batchCountrySchema),
});
export type BatchContent = z.infer<typeof batchContentSchema>;

/** A batch as cited: its id and its time. */
export const batchRefSchema = z.looseObject({ id: z.string(), as_of: z.string() });
export type BatchRef = z.infer<typeof batchRefSchema>;

/**
 * A batch as listed: its method (null when the upstream named none), and the change of method it
 * makes from the batch before (issue 31), or null.
 */
export const listedBatchSchema = z.extend(batchRefSchema, {
  // Optional for a reader of an older BFF (and its fixtures); this one always sends both.
  methodology_version: z.optional(z.nullable(z.string())),
  method_change: z.optional(
    z.nullable(z.looseObject({ from: z.string(), to: z.string(), comparable: z.boolean() })),
  ),
});
export type ListedBatch = z.infer<typeof listedBatchSchema>;

/** `GET /api/batches?before=&limit=`: newest first; `next_before` pages on (null: no more). */
export const batchListResponseSchema = z.looseObject({
  ok: z.literal(true),
  batches: z.array(listedBatchSchema),
  next_before: z.nullable(z.string()),
});
export type BatchListResponse = z.infer<typeof batchListResponseSchema>;

/** `GET /api/batches/:id`. */
export const batchResponseSchema = z.looseObject({
  ok: z.literal(true),
  id: z.string(),
  previous_id: z.string(),
  /** 1 for the first batch ever chained, then one more per batch in the order recorded. */
  position: z.int(),
  as_of: z.string(),
  content: batchContentSchema,
});
export type BatchResponse = z.infer<typeof batchResponseSchema>;

/** `GET /api/batches/verify`: whether the chain holds, and if not the first batch it fails at. */
export const chainVerificationSchema = z.looseObject({
  ok: z.literal(true),
  holds: z.boolean(),
  /** Batches whose content was recomputed. */
  checked: z.int(),
  /** The newest batch of the chain (cite it to pin everything before it). */
  head: z.nullable(batchRefSchema),
  broken_at: z.nullable(
    z.looseObject({
      position: z.int(),
      id: z.nullable(z.string()),
      as_of: z.nullable(z.string()),
      reason: z.string(),
    }),
  ),
});
export type ChainVerification = z.infer<typeof chainVerificationSchema>;

/*
 * As of a batch (issue 22): `?as_of=<time>` on /api/countries, /api/v1/hotspots,
 * /api/v1/country/:iso and /api/changes answers from the store alone, for the newest batch at
 * or before that time. Those answers then carry these two fields (and `/api/changes` an `id` in
 * `from_batch` and `to_batch`).
 */
export const asOfFieldsShape = {
  /** The batch answered for (at or before the time asked). */
  as_of: z.string(),
  /** Its id (null only for a batch not chained yet). */
  batch_id: z.nullable(z.string()),
};

/** `/api/countries?as_of=` (the live answer's shape, plus the batch's id). */
export const asOfCountriesResponseSchema = z.extend(countriesResponseSchema, asOfFieldsShape);
/** `/api/v1/hotspots?as_of=`: ranked by risk as recorded (no events: they are not in a batch). */
export const asOfHotspotsResponseSchema = z.extend(hotspotsResponseSchema, asOfFieldsShape);
/** `/api/v1/country/:iso?as_of=`: its events are those archived by that batch's time. */
export const asOfCountryResponseSchema = z.extend(countryResponseSchema, asOfFieldsShape);
