import type { Since } from '../services/history/history-answers.js';
import { decodeCursor } from '../services/history/history-answers.js';
import type { EventQuery, Range } from '../store/history-store.js';
import { BadRequest, ISO_TIME, parseIso, parseTime } from './params.js';

export { parseTime };
import { indexParams, parseIndexChoice, type RawIndexChoice } from './params.js';
import { optional, queryOf, rule, shown } from './route-schema.js';
import { DAY_MS } from '../../shared/durations.js';

const SPANS: Record<string, number> = { '24h': DAY_MS, '7d': 7 * DAY_MS, '30d': 30 * DAY_MS };
const MAX_Q = 100;
const MAX_EVENTS_LIMIT = 100;
const DEFAULT_EVENTS_LIMIT = 50;
const ROLE = /^[a-z_-]{1,32}$/;

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
  q?: string;
  from?: string;
  to?: string;
  role?: string;
  breaking?: string;
  cursor?: string;
  limit?: string;
}

function parseEventQuery(query: RawEventQuery): EventQuery {
  const range = parseRange(query);
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
    iso: query.iso === undefined ? null : parseIso(query.iso),
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
export const changesQuery = queryOf({ since: optional, as_of: optional }).transform(
  rule(({ since, as_of }: { since?: string; as_of?: string }) => ({
    since: parseSince(since),
    asked: since ?? 'previous',
    asOf: parseTime('as_of', as_of),
  })),
);

/** `/api/events` filters, parsed whole (values checked in a fixed order, as documented). */
export const eventsQuery = queryOf({
  iso: optional,
  q: optional,
  from: optional,
  to: optional,
  role: optional,
  breaking: optional,
  cursor: optional,
  limit: optional,
}).transform(rule(parseEventQuery));
