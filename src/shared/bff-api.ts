import { z } from 'zod/mini';
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
  stale: z.optional(z.boolean()),
  stale_reason: z.optional(z.string()),
};

/** One row of `GET /api/countries`: hotspot fields plus categories, for the map and table. */
export const countrySummarySchema = z.looseObject({
  ...countryScoresShape,
  categories: z.nullish(categoriesSchema),
});
export type CountrySummary = z.infer<typeof countrySummarySchema>;

export const countriesResponseSchema = z.looseObject({
  ok: z.literal(true),
  as_of: z.string(),
  methodology_version: optionalString,
  global: z.nullish(globalSummarySchema),
  count: z.int(),
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
  leader: z.nullable(z.string()),
  store: z.enum(['ok', 'unreachable']),
  store_error: z.nullable(z.string()),
  /** `fallback`: PostgreSQL is down; this replica spends at most its share of the budget. */
  ledger: z.enum(['shared', 'fallback']),
  replicas_seen: z.int(),
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
  message: z.nullable(z.string()),
  since: z.nullable(z.string()),
});
export type StoreHealthStatus = z.infer<typeof storeHealthSchema>;

export const statusResponseSchema = z.looseObject({
  ok: z.literal(true),
  mode: z.enum(['demo', 'live']),
  /** `as_of` of the newest data the BFF holds, or null before the first successful fetch. */
  as_of: z.nullable(z.string()),
  methodology_version: z.nullable(z.string()),
  last_checked_at: z.nullable(z.string()),
  next_check_at: z.nullable(z.string()),
  next_batch_due_at: z.string(),
  upstream: z.looseObject({
    health: z.enum(UPSTREAM_HEALTH),
    last_error: z.nullable(
      z.looseObject({
        class: z.enum(UPSTREAM_ERROR_CLASSES),
        message: z.string(),
        at: z.string(),
        status: z.nullable(z.int()),
      }),
    ),
    /** A plain sentence for people when something is wrong (e.g. the key was rejected). */
    message: z.nullable(z.string()),
  }),
  quota: z.looseObject({
    limit: z.nullable(z.int()),
    remaining: z.nullable(z.int()),
    used_last_60min: z.int(),
    reserve: z.int(),
    /** Set while the upstream has told us to wait (429 Retry-After). */
    blocked_until: z.nullable(z.string()),
  }),
  /** The operator's raster tile layer, if configured (TILE_URL); null means shapes only. */
  tiles: z.nullable(z.looseObject({ url: z.string(), attribution: z.string() })),
  /** What the history store holds (absent before the store is open). */
  history: z.nullish(historyCoverageSchema),
  /** Null for one process (no DATABASE_URL). */
  cluster: z.nullish(clusterStatusSchema),
  /** The embedded store's health (null without a store or with DATABASE_URL). */
  store: z.nullish(storeHealthSchema),
  cache: z.looseObject({
    entries: z.int(),
    hits: z.int(),
    misses: z.int(),
    stale_serves: z.int(),
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
  retry_after_seconds: z.optional(z.int()),
});
export type BffError = z.infer<typeof bffErrorSchema>;
