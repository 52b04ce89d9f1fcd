import { z } from 'zod/mini';
import { cursorPageShape } from './schemas/common.js';
import { watchlistInputSchema, watchlistSchema } from './alerts-api.js';
import { formulaWords } from './spreadsheet-cell.js';
import { readTime } from './time-text.js';
import { userTextProblem } from './user-text.js';

/**
 * Our own sites and the exposure of them to country risk (issue 20): the bodies of `/api/sites*`
 * and `/api/exposure`, shared by the BFF (which validates requests and builds answers with them)
 * and the SPA. Times are ISO 8601; trip dates are `YYYY-MM-DD`.
 */

/** Sites in all (every site is the team's): docs/api.md (Sites and exposure API) states it. */
export const SITES_MAX = 20_000;
/** The biggest import body: 20,000 rows of a wide spreadsheet fit with room to spare. */
export const SITES_IMPORT_MAX_BYTES = 10 * 1024 * 1024;
/** A point this close to a country (a coast, a border) is placed in the nearest one. */
export const PLACE_BY_DISTANCE_KM = 25;
/** Countries within this distance of a site are kept with it (the site rule's widest radius). */
export const NEARBY_MAX_KM = 300;
/** The site rule's default radius: any country within it counts for the site. */
export const DEFAULT_SITE_RADIUS_KM = 100;
export const SITE_REF_MAX = 100;
export const SITE_NAME_MAX = 200;
export const SITE_TAGS_MAX = 20;
export const SITE_TAG_MAX = 40;
export const SITE_PEOPLE_MAX = 1_000_000;
export const SITE_VALUE_MAX = 1e15;
/** The site rule's default: a country within reach whose active score moves this much alerts. */
export const DEFAULT_SITE_MIN_DELTA = 10;
/** The site rule's bounds (issue 20): a radius up to NEARBY_MAX_KM, a move of 1 to 100 points. */
export const SITE_MIN_DELTA_MAX = 100;

/**
 * The site rule as a site carries it: alert when any country within `radius_km` of the site
 * (its own at 0 km) rises a tier or moves |Δ active| ≥ `min_delta`; travel sites only during the
 * trip and the 7 days before it. On by default for every site.
 */
export const siteAlertSchema = z.strictObject({
  on: z.boolean({ error: 'alert.on must be true or false' }),
  radius_km: z
    .number({ error: 'alert.radius_km must be a number of kilometres' })
    .check(
      z.int('alert.radius_km must be a whole number of kilometres'),
      z.gte(0, 'alert.radius_km must not be negative'),
      z.lte(NEARBY_MAX_KM, `alert.radius_km must be at most ${NEARBY_MAX_KM}`),
    ),
  min_delta: z.number({ error: 'alert.min_delta must be a number of points' }).check(
    z.refine(Number.isFinite, { message: 'alert.min_delta must be a finite number' }),
    z.refine((v) => v >= 1 && v <= SITE_MIN_DELTA_MAX, {
      message: `alert.min_delta must be from 1 to ${SITE_MIN_DELTA_MAX}`,
    }),
  ),
});
export type SiteAlert = z.infer<typeof siteAlertSchema>;
export const DEFAULT_SITE_ALERT: SiteAlert = {
  on: true,
  radius_km: DEFAULT_SITE_RADIUS_KM,
  min_delta: DEFAULT_SITE_MIN_DELTA,
};

export const SITE_KINDS = [
  'office',
  'plant',
  'warehouse',
  'project',
  'residence',
  'travel',
  'other',
] as const;
export type SiteKind = (typeof SITE_KINDS)[number];

/**
 * How the site's country was found: `given` (the import named it), `inside` (the point is inside
 * the country's shape) or `distance` (within 25 km of its coast or border: the nearest one).
 */
export const PLACED_BY = ['given', 'inside', 'distance'] as const;
export type PlacedBy = (typeof PLACED_BY)[number];

function plainText(field: string, max: number) {
  return z.string({ error: `${field} is required (1 to ${max} characters)` }).check(
    z.trim(),
    z.minLength(1, `${field} must not be empty`),
    z.maxLength(max, `${field} must be at most ${max} characters`),
    z.superRefine((text, ctx) => {
      // The formula rule of every way a site comes in (imports, POST, PUT): one function (zod's
      // path names the field).
      const problem = userTextProblem(field, text) ?? formulaWords(text);
      if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
    }),
  );
}

const tripDate = (field: string) =>
  z.string({ error: `${field} must be a date such as 2026-12-01` }).check(
    z.regex(/^\d{4}-\d{2}-\d{2}$/, `${field} must be a date such as 2026-12-01`),
    z.refine((text) => readTime(text) !== null, {
      message: `${field} is not a real calendar date from 1970 to 9999`,
    }),
  );

const coordinate = (field: 'lat' | 'lng', limit: number) =>
  z.number({ error: `${field} must be a number of degrees` }).check(
    z.refine(Number.isFinite, { message: `${field} must be a finite number` }),
    z.refine((value) => value >= -limit && value <= limit, {
      message: `${field} must be from -${limit} to ${limit} degrees`,
    }),
  );

/**
 * One site as written by an import row or `PUT /api/sites/:id` (PUT replaces the whole site).
 * Optional fields left out are empty (PUT does not keep what it was not sent).
 */
export const siteInputSchema = z
  .strictObject({
    ref: plainText('ref', SITE_REF_MAX),
    name: plainText('name', SITE_NAME_MAX),
    kind: z.enum(SITE_KINDS, { error: `kind must be one of ${SITE_KINDS.join(', ')}` }),
    lat: coordinate('lat', 90),
    lng: coordinate('lng', 180),
    iso: z.optional(
      z.nullable(
        z.pipe(
          z
            .string({ error: 'iso must be an ISO 3166-1 alpha-3 code such as "POL"' })
            .check(
              z.regex(/^[A-Za-z]{3}$/, 'iso must be an ISO 3166-1 alpha-3 code such as "POL"'),
            ),
          z.transform((code) => code.toUpperCase()),
        ),
      ),
    ),
    people: z.optional(
      z.nullable(
        z
          .number({ error: 'people must be a whole number' })
          .check(
            z.int('people must be a whole number'),
            z.gte(0, 'people must not be negative'),
            z.lte(SITE_PEOPLE_MAX, `people must be at most ${SITE_PEOPLE_MAX}`),
          ),
      ),
    ),
    value: z.optional(
      z.nullable(
        z.number({ error: 'value must be a number' }).check(
          z.refine(Number.isFinite, { message: 'value must be a finite number' }),
          z.refine((v) => v >= 0 && v <= SITE_VALUE_MAX, {
            message: 'value must be from 0 to 10^15',
          }),
        ),
      ),
    ),
    currency: z.optional(
      z.nullable(
        z.pipe(
          z
            .string({ error: 'currency must be an ISO 4217 code such as "EUR"' })
            .check(z.regex(/^[A-Za-z]{3}$/, 'currency must be an ISO 4217 code such as "EUR"')),
          z.transform((code) => code.toUpperCase()),
        ),
      ),
    ),
    tags: z.optional(
      z
        .array(plainText('tag', SITE_TAG_MAX), { error: 'tags must be a list of words' })
        .check(z.maxLength(SITE_TAGS_MAX, `a site may have at most ${SITE_TAGS_MAX} tags`)),
    ),
    from: z.optional(z.nullable(tripDate('from'))),
    to: z.optional(z.nullable(tripDate('to'))),
    /** Left out: the default rule (on, 100 km, 10 points). Import columns: alert_on, alert_radius_km, alert_min_delta. */
    alert: z.optional(siteAlertSchema),
  })
  .check(
    z.superRefine((site, ctx) => {
      const dated = (site.from ?? null) !== null || (site.to ?? null) !== null;
      if (dated && site.kind !== 'travel') {
        ctx.addIssue({
          code: 'custom',
          message: 'from and to are only for kind "travel" (a trip)',
        });
      }
      if (site.from && site.to && site.from > site.to) {
        ctx.addIssue({ code: 'custom', message: 'from must not be after to' });
      }
    }),
  );
export type SiteInput = z.infer<typeof siteInputSchema>;

/** A country within reach of a site, and how far its shape is (0 for the site's own). */
export const nearbyCountrySchema = z.object({ iso: z.string(), km: z.number() });
export type NearbyCountry = z.infer<typeof nearbyCountrySchema>;

/** The site's country's numbers in the newest recorded batch (null when it has no row there). */
export const siteCountrySchema = z.object({
  iso: z.string(),
  name: z.nullable(z.string()),
  risk: z.nullable(z.number()),
  tier: z.nullable(z.string()),
  active: z.nullable(z.number()),
  delta_active: z.nullable(z.number()),
});
export type SiteCountry = z.infer<typeof siteCountrySchema>;

/** A stored site as every answer shows it. */
export const siteSchema = z.object({
  id: z.number(),
  ref: z.string(),
  name: z.string(),
  kind: z.enum(SITE_KINDS),
  lat: z.number(),
  lng: z.number(),
  iso: z.string(),
  placed_by: z.enum(PLACED_BY),
  people: z.nullable(z.number()),
  value: z.nullable(z.number()),
  currency: z.nullable(z.string()),
  tags: z.array(z.string()),
  from: z.nullable(z.string()),
  to: z.nullable(z.string()),
  /** Countries within 300 km of the site, nearest first (its own country first, at 0 km). */
  nearby: z.array(nearbyCountrySchema),
  /** The ETag's number: `If-Match: "<version>"` on PUT and DELETE. */
  version: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
  country: z.nullable(siteCountrySchema),
  /** The site rule (issue 20). */
  alert: siteAlertSchema,
});
export type Site = z.infer<typeof siteSchema>;

/** `GET /api/sites` pages: this many sites unless `limit` says otherwise, and at most this many. */
export const SITES_PAGE_DEFAULT = 500;
export const SITES_PAGE_MAX = 2_000;

/** `GET /api/sites?tier=crit,high&country=POL&kind=plant&tag=emea&limit=500&cursor=` */
export const sitesResponseSchema = z.object({
  ...cursorPageShape,
  /** The batch the country numbers come from; null before any batch is recorded. */
  as_of: z.nullable(z.string()),
  /** Sites stored, whatever the filters. */
  total: z.number(),
  /** Sites the filters keep, on every page together. */
  matched: z.number(),
  /** This page: by id, at most `limit`. */
  sites: z.array(siteSchema),
});
export type SitesResponse = z.infer<typeof sitesResponseSchema>;

/**
 * `GET /api/sites/points`: every site as the map draws it, one array per field in id order (the
 * i-th entry of each is the i-th site), about a seventh of `/api/sites`' bytes. `tier` is the
 * site's country's tier in the newest batch (null: no row there); `people` is 0 when not given.
 * An `ETag` comes with it: `If-None-Match` with it is answered 304 while nothing changed.
 */
export const sitePointsResponseSchema = z
  .object({
    ok: z.literal(true),
    as_of: z.nullable(z.string()),
    total: z.number(),
    id: z.array(z.number()),
    lat: z.array(z.number()),
    lng: z.array(z.number()),
    kind: z.array(z.string()),
    tier: z.array(z.nullable(z.string())),
    name: z.array(z.string()),
    iso: z.array(z.string()),
    people: z.array(z.number()),
  })
  .check(
    z.refine(
      (points) =>
        [
          points.lat,
          points.lng,
          points.kind,
          points.tier,
          points.name,
          points.iso,
          points.people,
        ].every((column) => column.length === points.id.length),
      { message: 'every column must have one entry per site' },
    ),
  );
export type SitePointsResponse = z.infer<typeof sitePointsResponseSchema>;

/** `GET|PUT /api/sites/:id` (with an `ETag` header). */
export const siteResponseSchema = z.object({ ok: z.literal(true), site: siteSchema });
export type SiteResponse = z.infer<typeof siteResponseSchema>;

/** `DELETE /api/sites/:id` */
export const siteDeletedSchema = z.object({ ok: z.literal(true) });

/** One row of an import the answer names: its row number (the header is row 1 of a CSV). */
export const importedRowSchema = z.object({
  row: z.number(),
  ref: z.string(),
  /** Null in a dry run's created rows (nothing was stored). */
  id: z.nullable(z.number()),
  iso: z.string(),
  placed_by: z.enum(PLACED_BY),
});
export type ImportedRow = z.infer<typeof importedRowSchema>;

export const rejectedRowSchema = z.object({
  row: z.number(),
  /** The row's ref when it had a readable one. */
  ref: z.nullable(z.string()),
  reason: z.string(),
});
export type RejectedRow = z.infer<typeof rejectedRowSchema>;

/** `POST /api/sites/import[?dry_run=1]` */
export const importResponseSchema = z.object({
  ok: z.literal(true),
  dry_run: z.boolean(),
  /** Data rows read (header excluded). */
  rows: z.number(),
  created: z.array(importedRowSchema),
  updated: z.array(importedRowSchema),
  /** Rows identical to the stored site with their ref (a re-import of the same file). */
  unchanged: z.number(),
  rejected: z.array(rejectedRowSchema),
  /** Sites stored after the import (or that would be, in a dry run). */
  total: z.number(),
});
export type ImportResponse = z.infer<typeof importResponseSchema>;

/** A site in exposure lists: enough to name it and link to it. */
export const siteBriefSchema = z.object({
  id: z.number(),
  ref: z.string(),
  name: z.string(),
  kind: z.enum(SITE_KINDS),
  iso: z.string(),
  people: z.nullable(z.number()),
});
export type SiteBrief = z.infer<typeof siteBriefSchema>;

export const exposureTierSchema = z.object({
  /** A tier label, or `unknown` for sites whose country has no row in the newest batch. */
  tier: z.string(),
  sites: z.number(),
  people: z.number(),
  value: z.number(),
  /** Of those sites, how many count here by our override of their country's tier (issue 31). */
  overridden: z.optional(z.number()),
});

/** A country of ours whose numbers moved over a period, with our sites in it. */
export const exposureMoveSchema = z.object({
  iso: z.string(),
  name: z.nullable(z.string()),
  /** Our tier (an override's where one was in force at that batch, issue 31), else the provider's. */
  tier_before: z.nullable(z.string()),
  tier_now: z.nullable(z.string()),
  /** The provider's tiers, when an override stood in for either (issue 31). */
  provider_tier_before: z.optional(z.nullable(z.string())),
  provider_tier_now: z.optional(z.nullable(z.string())),
  risk_before: z.nullable(z.number()),
  risk_now: z.nullable(z.number()),
  active_before: z.nullable(z.number()),
  active_now: z.nullable(z.number()),
  sites: z.number(),
  people: z.number(),
  /** Up to 10 of the country's sites, most people first. */
  examples: z.array(siteBriefSchema),
});
export type ExposureMove = z.infer<typeof exposureMoveSchema>;

export const EXPOSURE_PERIODS = ['previous_batch', 'day', 'week'] as const;
export type ExposurePeriod = (typeof EXPOSURE_PERIODS)[number];

export const exposureMovedSchema = z.object({
  /** The batch compared with (the previous one, the newest at least 24 h / 7 d older). */
  since: z.nullable(z.string()),
  countries: z.array(exposureMoveSchema),
});

export const riskySiteSchema = z.extend(siteBriefSchema, {
  /** The site's own country's risk and tier. */
  risk: z.nullable(z.number()),
  /** Our tier: the override's where one is in force (issue 31), else the provider's. */
  tier: z.nullable(z.string()),
  /** The provider's tier, beside ours, when an override is in force. */
  provider_tier: z.optional(z.nullable(z.string())),
  /** Our override of the country in force at the batch (issue 31), if any. */
  override: z.nullish(z.object({ tier: z.string(), reason: z.string(), expires: z.string() })),
  /** Distance-weighted risk within the site rule's radius, and the country giving it (shared/site-exposure). */
  weighted_risk: z.nullable(z.number()),
  weighted_by: z.nullable(z.object({ iso: z.string(), km: z.number() })),
  /** people × weighted risk / 100: what the list is ranked by. */
  exposure: z.nullable(z.number()),
});

export const exposurePointSchema = z.object({ as_of: z.string(), index: z.nullable(z.number()) });
export type ExposurePoint = z.infer<typeof exposurePointSchema>;

export const EXPOSURE_WEIGHTS = ['people', 'value'] as const;
export type ExposureWeight = (typeof EXPOSURE_WEIGHTS)[number];

/** `GET /api/exposure?weight=people|value&tier=&country=&kind=&tag=` */
export const exposureResponseSchema = z.object({
  ok: z.literal(true),
  /** The batch the numbers were computed from (null: nothing recorded yet) and its id. */
  as_of: z.nullable(z.string()),
  /** `/api/batches/:id` (null: no batch yet, or not chained yet). */
  batch_id: z.nullable(z.string()),
  weight: z.enum(EXPOSURE_WEIGHTS),
  sites: z.number(),
  people: z.number(),
  by_tier: z.array(exposureTierSchema),
  moved: z.object({
    previous_batch: exposureMovedSchema,
    day: exposureMovedSchema,
    week: exposureMovedSchema,
  }),
  /** Up to 20 sites, most exposed first (shared/site-exposure: people × distance-weighted risk). */
  riskiest: z.array(riskySiteSchema),
  /**
   * The weighted mean of our sites' countries' risk, now and at every recorded batch, oldest
   * first. A site with no people (or no value) weighs as one when no site has any.
   */
  index: z.object({ now: z.nullable(z.number()), trend: z.array(exposurePointSchema) }),
  /** With `?index=team` (issue 31): by_tier is by our tier; the provider's own count here. */
  provider: z.optional(z.object({ by_tier: z.array(exposureTierSchema) })),
  /** With `?index=team`: which weights made our tiers (the team view's note). */
  team_index: z.optional(z.looseObject({ kind: z.literal('team'), name: z.string() })),
});
export type ExposureResponse = z.infer<typeof exposureResponseSchema>;

/**
 * `PUT /api/sites/alert-delivery` (with `If-Match`): where site alerts go besides the inbox, the
 * webhook and e-mail of the team list "Our sites", set as a watchlist's are. Left out: none.
 */
export const siteAlertDeliveryInputSchema = z.pick(watchlistInputSchema, {
  webhook_url: true,
  webhook_format: true,
  email: true,
});
export type SiteAlertDeliveryInput = z.infer<typeof siteAlertDeliveryInputSchema>;

/** `GET|PUT /api/sites/alert-delivery`: the "Our sites" list (an `ETag` header with it). */
export const siteAlertDeliveryResponseSchema = z.object({
  ok: z.literal(true),
  watchlist: watchlistSchema,
  /** Only in the answer that gave the list its first webhook: never shown again. */
  webhook_secret: z.optional(z.string()),
});
