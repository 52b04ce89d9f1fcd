import type { Since } from '../services/history/history-answers.js';
import { decodeCursor } from '../services/history/history-answers.js';
import type { EventQuery, Range } from '../store/history-store.js';
import { BadRequest, ISO_TIME, parseIso, parseTime } from './params.js';

export { parseTime };
import { indexParams, parseIndexChoice, type RawIndexChoice } from './params.js';
import { optional, queryOf, rule, shown } from './route-schema.js';
import { DAY_MS } from '../../shared/durations.js';
import { buildReferenceCountries } from '../services/reference/reference-countries.js';

const SPANS: Record<string, number> = { '24h': DAY_MS, '7d': 7 * DAY_MS, '30d': 30 * DAY_MS };
const MAX_Q = 100;
const MAX_EVENTS_LIMIT = 100;
const DEFAULT_EVENTS_LIMIT = 50;
const ROLE = /^[a-z_-]{1,32}$/;
/** At most this many codes in `iso=A,B,C` (a region or a watchlist names its own). */
export const MAX_EVENT_COUNTRIES = 50;
const WATCHLIST_ID = /^[1-9]\d{0,11}$/;

/** Region and subregion (lower case) → their codes, and every known code; built once. */
let countryIndex: { regions: Map<string, string[]>; known: Set<string> } | null = null;
function countryIndexOnce(): NonNullable<typeof countryIndex> {
  if (countryIndex) return countryIndex;
  const regions = new Map<string, string[]>();
  const known = new Set<string>();
  for (const country of buildReferenceCountries()) {
    known.add(country.iso);
    for (const name of [country.region, country.subregion]) {
      if (!name) continue;
      const key = name.toLowerCase();
      regions.set(key, [...(regions.get(key) ?? []), country.iso]);
    }
  }
  countryIndex = { regions, known };
  return countryIndex;
}

/** `iso=A,B,C`: 1 to 50 known codes, repeats dropped. */
function parseIsoList(raw: string): string[] {
  const parts = raw.split(',').map((part) => part.trim());
  if (parts.length > MAX_EVENT_COUNTRIES) {
    throw new BadRequest(
      `iso lists at most ${MAX_EVENT_COUNTRIES} country codes (got ${parts.length})`,
    );
  }
  const { known } = countryIndexOnce();
  const codes = parts.map((part) => {
    const iso = parseIso(part);
    if (!known.has(iso)) throw new BadRequest(`iso: ${iso} is not a known country code`);
    return iso;
  });
  return [...new Set(codes)];
}

function parseRegion(raw: string): string[] {
  const codes = countryIndexOnce().regions.get(raw.trim().toLowerCase());
  if (!codes) {
    throw new BadRequest(
      `region must be a UN region or subregion such as Africa or Western Africa (got ${shown(raw)})`,
    );
  }
  return codes;
}

/** Which countries the search covers: `iso`, `region` or `watchlist` (one of them at most). */
function parseCountryChoice(query: RawEventQuery): Pick<EventSearch, 'isos' | 'watchlist'> {
  const given = (['iso', 'region', 'watchlist'] as const).filter((k) => query[k] !== undefined);
  if (given.length > 1) {
    throw new BadRequest(`${given.join(' and ')}: ask for one of iso, region or watchlist`);
  }
  if (query.iso !== undefined) return { isos: parseIsoList(query.iso), watchlist: null };
  if (query.region !== undefined) return { isos: parseRegion(query.region), watchlist: null };
  if (query.watchlist !== undefined) {
    if (!WATCHLIST_ID.test(query.watchlist)) {
      throw new BadRequest(`watchlist must be a watchlist's id (got ${shown(query.watchlist)})`);
    }
    return { isos: null, watchlist: query.watchlist };
  }
  return { isos: null, watchlist: null };
}

/** `from`/`to`: both optional; `from` after `to` is refused. */
function parseRange(query: { from?: string; to?: string }): Range {
  const from = parseTime('from', query.from);
  const to = parseTime('to', query.to);
  if (from && to && from > to) {
    throw new BadRequest(`from (${from.toISOString()}) is after to (${to.toISOString()})`);
  }
  return { from, to };
}

function beforeRetention(name: string, retentionStart: Date): BadRequest {
  return new BadRequest(
    `${name} is before the history kept (HISTORY_RETENTION_DAYS: since ${retentionStart.toISOString()})`,
  );
}

/**
 * A range reaching before the retention window is refused (that history was deleted on purpose:
 * an empty answer would look like calm). Checked per request: the window moves.
 */
export function checkRetention(range: Range, retentionStart: Date | null): void {
  if (!retentionStart) return;
  if (range.to && range.to < retentionStart) throw beforeRetention('to', retentionStart);
  if (range.from && range.from < retentionStart) throw beforeRetention('from', retentionStart);
}

function parseSince(raw: string | undefined): Since {
  if (raw === undefined || raw === 'previous') return { kind: 'previous' };
  const span = SPANS[raw];
  if (span !== undefined) return { kind: 'span', ms: span };
  if (!ISO_TIME.test(raw)) {
    throw new BadRequest(
      `since must be previous, 24h, 7d, 30d or an ISO 8601 time (got ${shown(raw)})`,
    );
  }
  const at = parseTime('since', raw);
  if (!at) throw new BadRequest('since is missing');
  return { kind: 'time', at };
}

export function checkSinceRetention(since: Since, retentionStart: Date | null): void {
  if (retentionStart && since.kind === 'time' && since.at < retentionStart) {
    throw beforeRetention('since', retentionStart);
  }
}

interface RawEventQuery {
  iso?: string;
  region?: string;
  watchlist?: string;
  q?: string;
  from?: string;
  to?: string;
  role?: string;
  breaking?: string;
  cursor?: string;
  limit?: string;
}

/** The store's query, and a watchlist still to be read into `isos` (the route reads it). */
export type EventSearch = EventQuery & { watchlist: string | null };

function parseEventQuery(query: RawEventQuery): EventSearch {
  const range = parseRange(query);
  const countries = parseCountryChoice(query);
  const { q, role, breaking: rawBreaking, cursor: rawCursor, limit: rawLimit } = query;
  if (q !== undefined && (q.trim() === '' || q.length > MAX_Q)) {
    throw new BadRequest(`q must be 1 to ${MAX_Q} characters of search text`);
  }
  if (role !== undefined && !ROLE.test(role)) {
    throw new BadRequest(`role must be a role label such as locus or actor (got ${shown(role)})`);
  }
  let breaking: boolean | null = null;
  if (rawBreaking !== undefined) {
    if (!['true', 'false', '1', '0'].includes(rawBreaking)) {
      throw new BadRequest(`breaking must be true or false (got ${shown(rawBreaking)})`);
    }
    breaking = rawBreaking === 'true' || rawBreaking === '1';
  }
  const before = rawCursor === undefined ? null : decodeCursor(rawCursor);
  if (rawCursor !== undefined && !before) {
    throw new BadRequest('cursor is not one this server gave out (pass next_cursor unchanged)');
  }
  let limit = DEFAULT_EVENTS_LIMIT;
  if (rawLimit !== undefined) {
    if (
      !/^\d{1,3}$/.test(rawLimit) ||
      Number(rawLimit) < 1 ||
      Number(rawLimit) > MAX_EVENTS_LIMIT
    ) {
      throw new BadRequest(
        `limit must be a whole number from 1 to ${MAX_EVENTS_LIMIT} (got ${shown(rawLimit)})`,
      );
    }
    limit = Number(rawLimit);
  }
  return {
    ...countries,
    q: q?.trim() ?? null,
    role: role ?? null,
    breaking,
    before,
    limit,
    ...range,
  };
}

/** `?from=&to=` of the history routes, as a Range (retention is checked per request). */
export const rangeQuery = queryOf({ from: optional, to: optional }).transform(rule(parseRange));

/** A country's history: its range, and which figure its points carry (issue 31). */
export const countryRangeQuery = queryOf({
  from: optional,
  to: optional,
  ...indexParams,
}).transform(
  rule((query: { from?: string; to?: string } & RawIndexChoice) => ({
    ...parseRange(query),
    ...parseIndexChoice(query),
  })),
);

/**
 * `?since=&as_of=` of `/api/changes`: the parsed moment, the text it was asked as, and the batch
 * time the comparison ends at (null: the newest).
 */
export const changesQuery = queryOf({ since: optional, as_of: optional, ...indexParams }).transform(
  rule((query: { since?: string; as_of?: string } & RawIndexChoice) => ({
    since: parseSince(query.since),
    asked: query.since ?? 'previous',
    asOf: parseTime('as_of', query.as_of),
    ...parseIndexChoice(query),
  })),
);

/** `/api/events` filters, parsed whole (values checked in a fixed order, as documented). */
const EVENT_PARAMS = {
  iso: optional,
  region: optional,
  watchlist: optional,
  q: optional,
  from: optional,
  to: optional,
  role: optional,
  breaking: optional,
  cursor: optional,
  limit: optional,
};
export const eventsQuery = queryOf(EVENT_PARAMS).transform(rule(parseEventQuery));

/** The events' spreadsheet: the same search, and its header row's `lang` (issue 34). */
export const eventsCsvQuery = queryOf({ ...EVENT_PARAMS, lang: optional }).transform(
  rule(({ lang, ...search }: RawEventQuery & { lang?: string }) => ({
    search: parseEventQuery(search),
    lang: lang ?? null,
  })),
);
