import { z } from 'zod';
import { categoriesSchema } from './schemas/category.js';
import { optionalString } from './schemas/common.js';
import { globalSummarySchema } from './schemas/global.js';
import { countryScoresShape } from './schemas/hotspot.js';
import { historyCoverageSchema } from './history-api.js';

/**
 * Shapes the BFF adds beyond the upstream's own routes. The upstream-shaped routes
 * (`/api/v1/*`) answer with the upstream's schemas plus the additive staleness fields below.
 */

/** Added to any JSON body served from cache past its freshness because the upstream failed. */
export const stalenessShape = {
  stale: z.boolean().optional(),
  stale_reason: z.string().optional(),
};

/** One row of `GET /api/countries`: hotspot fields plus categories, for the map and table. */
export const countrySummarySchema = z.looseObject({
  ...countryScoresShape,
  categories: categoriesSchema.nullish(),
});
export type CountrySummary = z.infer<typeof countrySummarySchema>;

export const countriesResponseSchema = z.looseObject({
  ok: z.literal(true),
  as_of: z.string(),
  methodology_version: optionalString,
  global: globalSummarySchema.nullish(),
  count: z.number().int(),
  countries: z.array(countrySummarySchema),
  ...stalenessShape,
});
export type CountriesResponse = z.infer<typeof countriesResponseSchema>;

export const UPSTREAM_HEALTH = ['ok', 'degraded', 'down'] as const;
export const UPSTREAM_ERROR_CLASSES = [
  'network',
  'timeout',
  'server_error',
  'rate_limited',
  'key_rejected',
  'no_api_access',
  'malformed_response',
] as const;

/** Replicas sharing one PostgreSQL (issue 9): this replica's view of the cluster. */
export const clusterStatusSchema = z.object({
  replica: z.string(),
  role: z.enum(['leader', 'follower']),
  /** The replica holding the leader lease, as last seen (null: none yet, or unknown). */
  leader: z.string().nullable(),
  store: z.enum(['ok', 'unreachable']),
  store_error: z.string().nullable(),
  /** `fallback`: PostgreSQL is down; this replica spends at most its share of the budget. */
  ledger: z.enum(['shared', 'fallback']),
  replicas_seen: z.number().int(),
});
export type ClusterStatus = z.infer<typeof clusterStatusSchema>;

/**
 * The embedded store (PGlite under DATA_DIR): `failing` when its folder is gone or replaced, its
 * disk full or unwritable, or its writes fail; `message` says what to do. Null with DATABASE_URL
 * (the cluster's `store` tells PostgreSQL's state).
 */
export const storeHealthSchema = z.object({
  kind: z.literal('pglite'),
  health: z.enum(['ok', 'failing']),
  message: z.string().nullable(),
  since: z.string().nullable(),
});
export type StoreHealthStatus = z.infer<typeof storeHealthSchema>;

export const statusResponseSchema = z.looseObject({
  ok: z.literal(true),
  mode: z.enum(['demo', 'live']),
  /** `as_of` of the newest data the BFF holds, or null before the first successful fetch. */
  as_of: z.string().nullable(),
  methodology_version: z.string().nullable(),
  last_checked_at: z.string().nullable(),
  next_check_at: z.string().nullable(),
  next_batch_due_at: z.string(),
  upstream: z.looseObject({
    health: z.enum(UPSTREAM_HEALTH),
    last_error: z
      .looseObject({
        class: z.enum(UPSTREAM_ERROR_CLASSES),
        message: z.string(),
        at: z.string(),
        status: z.number().int().nullable(),
      })
      .nullable(),
    /** A plain sentence for people when something is wrong (e.g. the key was rejected). */
    message: z.string().nullable(),
  }),
  quota: z.looseObject({
    limit: z.number().int().nullable(),
    remaining: z.number().int().nullable(),
    used_last_60min: z.number().int(),
    reserve: z.number().int(),
    /** Set while the upstream has told us to wait (429 Retry-After). */
    blocked_until: z.string().nullable(),
  }),
  /** The operator's raster tile layer, if configured (TILE_URL); null means shapes only. */
  tiles: z.looseObject({ url: z.string(), attribution: z.string() }).nullable(),
  /** What the history store holds (absent before the store is open). */
  history: historyCoverageSchema.nullish(),
  /** Null for one process (no DATABASE_URL). */
  cluster: clusterStatusSchema.nullish(),
  /** The embedded store's health (null without a store or with DATABASE_URL). */
  store: storeHealthSchema.nullish(),
  cache: z.looseObject({
    entries: z.number().int(),
    hits: z.number().int(),
    misses: z.number().int(),
    stale_serves: z.number().int(),
  }),
});
export type StatusResponse = z.infer<typeof statusResponseSchema>;

/**
 * Error body of the BFF: `{ok: false, error}`; when the caller should wait (upstream quota, the
 * per-client limit), `retry_after_seconds` matches the `Retry-After` header.
 */
export const bffErrorSchema = z.looseObject({
  ok: z.literal(false),
  error: z.string(),
  retry_after_seconds: z.number().int().optional(),
});
export type BffError = z.infer<typeof bffErrorSchema>;
