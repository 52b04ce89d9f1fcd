import { z } from 'zod';
import { HOTSPOT_DEFAULT_LIMIT, HOTSPOT_MAX_LIMIT } from '../../shared/hotspot-limits.js';
import { ISO3_PATTERN, normaliseIso3 } from '../../shared/iso.js';
import { RISK_INDEXES, type RiskIndex } from '../../shared/team-index-api.js';
import { ISO_TIME, readTime } from '../../shared/time-text.js';
import type { WeightsChoice } from '../services/team-index/team-view.js';
import type { HotspotsQuery } from '../services/risk-answers/risk-answers.js';
import type { ExportFormat } from '../services/upstream-resources/resource-specs.js';
import { BadRequest, optional, paramsOf, queryOf, rule, shown } from './route-schema.js';

export { BadRequest };

// A date, or a date-time with seconds optional, fractions optional, and Z or an offset.
export { ISO_TIME };
/** Every time a parameter names, by the one date rule (shared/time-text.ts). */
export function parseTime(name: string, raw: string | undefined): Date | null {
  if (raw === undefined) return null;
  const ms = readTime(raw);
  if (ms === null) {
    throw new BadRequest(
      `${name} must be an ISO 8601 time such as 2026-11-01 or 2026-11-01T10:00:00Z: a real date from 1970 to 9999 (got ${shown(raw)})`,
    );
  }
  return new Date(ms);
}

/** `?as_of=`: the time of the batch asked for (the newest at or before it is answered). */
export function parseAsOf(raw: string | undefined): Date | null {
  return parseTime('as_of', raw);
}

const MAX_LIMIT = HOTSPOT_MAX_LIMIT;
const DEFAULT_LIMIT = HOTSPOT_DEFAULT_LIMIT;
const TIER_LABEL = /^[a-z0-9_-]{1,32}$/;
const MAX_TIER_ITEMS = 16;
const INCLUDE_ITEMS = ['categories', 'events'] as const;

export function parseLimit(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_LIMIT;
  if (!/^[0-9]{1,3}$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_LIMIT) {
    throw new BadRequest(`limit must be a whole number from 1 to ${MAX_LIMIT} (got ${shown(raw)})`);
  }
  return Number(raw);
}

/** Tier labels, sorted and de-duplicated so equivalent filters share one cache entry. */
export function parseTiers(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  const items = raw.split(',');
  if (items.length > MAX_TIER_ITEMS) {
    throw new BadRequest(`tier may list at most ${MAX_TIER_ITEMS} labels`);
  }
  items.forEach((item, i) => {
    if (item === '') {
      throw new BadRequest(`tier has an empty item (position ${i + 1}); write e.g. tier=crit,high`);
    }
    if (!TIER_LABEL.test(item)) {
      throw new BadRequest(
        `tier item ${shown(item)} is not a tier label (lower-case letters, digits, _ or -, at most 32)`,
      );
    }
  });
  return [...new Set(items)].sort();
}

export function parseInclude(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  const items = raw.split(',');
  for (const item of items) {
    if (!(INCLUDE_ITEMS as readonly string[]).includes(item)) {
      throw new BadRequest(
        `include may only list ${INCLUDE_ITEMS.join(' and ')} (got ${shown(item)})`,
      );
    }
  }
  return [...new Set(items)].sort();
}

export const ISO_EXPECTED =
  'iso must be a three-letter ISO 3166-1 alpha-3 country code such as UKR';

/** Exactly three ASCII letters, upper-cased before it becomes part of a cache key. */
export function parseIso(raw: string): string {
  if (!ISO3_PATTERN.test(raw)) throw new BadRequest(`${ISO_EXPECTED} (got ${shown(raw)})`);
  return normaliseIso3(raw);
}

function parseFormat(raw: string | undefined): ExportFormat {
  const format = raw ?? 'csv';
  if (format !== 'csv' && format !== 'json') {
    throw new BadRequest(`format must be csv or json (got ${shown(format)})`);
  }
  return format;
}

// --- The route schemas (zod): what each GET route accepts, and the 400 for anything else ---

/** `index` and `weights` (issue 31), on every route that answers country figures. */
export const indexParams = { index: optional, weights: optional };
export interface RawIndexChoice {
  index?: string;
  weights?: string;
}
/** Which figure the answer carries, and (team only) whose weights: null lets the route choose. */
export interface IndexChoice {
  index: RiskIndex;
  weights: WeightsChoice | null;
}

export function parseIndexChoice(query: RawIndexChoice): IndexChoice {
  const index = query.index ?? 'provider';
  if (!(RISK_INDEXES as readonly string[]).includes(index)) {
    throw new BadRequest(`index must be provider or team (got ${shown(index)})`);
  }
  const weights = query.weights ?? null;
  if (weights !== null && weights !== 'today' && weights !== 'then') {
    throw new BadRequest(`weights must be today or then (got ${shown(weights)})`);
  }
  if (weights !== null && index !== 'team') {
    throw new BadRequest('weights only applies with index=team');
  }
  return { index: index as RiskIndex, weights };
}

/** A route that takes no query parameters. */
export const noQuery = queryOf({});

/** `:iso`, exactly three ASCII letters, upper-cased. */
export const isoParams = paramsOf({ iso: z.string().transform(rule(parseIso)) });

export const hotspotsQuery = queryOf({
  limit: optional,
  tier: optional,
  include: optional,
  as_of: optional,
  ...indexParams,
}).transform(
  rule(
    (
      query: {
        limit?: string;
        tier?: string;
        include?: string;
        as_of?: string;
      } & RawIndexChoice,
    ): HotspotsQuery & { asOf: Date | null } & IndexChoice => ({
      limit: parseLimit(query.limit),
      tiers: parseTiers(query.tier),
      include: parseInclude(query.include),
      asOf: parseAsOf(query.as_of),
      ...parseIndexChoice(query),
    }),
  ),
);

/** A route whose only parameter is `as_of` (the country page, the country list). */
export const asOfQuery = queryOf({ as_of: optional, ...indexParams }).transform(
  rule((query: { as_of?: string } & RawIndexChoice) => ({
    asOf: parseAsOf(query.as_of),
    ...parseIndexChoice(query),
  })),
);

export const exportQuery = queryOf({ format: optional }).transform(
  rule((query: { format?: string }) => parseFormat(query.format)),
);

/**
 * A spreadsheet's header language (issue 34): `?lang=` names one; an unknown code falls back to
 * English like a page's does (never an error).
 */
const lang = optional;

/** The overview's spreadsheet: its tier filter, the batch it shows, its header's `lang`. */
export const tierAsOfQuery = queryOf({
  tier: optional,
  as_of: optional,
  lang,
  ...indexParams,
}).transform(
  rule((query: { tier?: string; as_of?: string; lang?: string } & RawIndexChoice) => ({
    tiers: parseTiers(query.tier),
    asOf: parseAsOf(query.as_of),
    lang: query.lang ?? null,
    ...parseIndexChoice(query),
  })),
);

/** A country's spreadsheet: the batch it shows (`as_of`, optional), its header's `lang`. */
export const asOfLangQuery = queryOf({ as_of: optional, lang, ...indexParams }).transform(
  rule((query: { as_of?: string; lang?: string } & RawIndexChoice) => ({
    asOf: parseAsOf(query.as_of),
    lang: query.lang ?? null,
    ...parseIndexChoice(query),
  })),
);
