import type { Since } from '../services/history-answers.js';
import { decodeCursor } from '../services/history-answers.js';
import type { EventQuery, Range } from '../store/history-store.js';
import { BadRequest, parseIso } from './params.js';

const DAY_MS = 86_400_000;
const SPANS: Record<string, number> = { '24h': DAY_MS, '7d': 7 * DAY_MS, '30d': 30 * DAY_MS };
// A date, or a date-time with seconds optional, fractions optional, and Z or an offset.
const ISO_TIME = /^\d{4}-\d\d-\d\d(T\d\d:\d\d(:\d\d(\.\d{1,9})?)?(Z|[+-]\d\d:\d\d))?$/;
const MAX_Q = 100;
const MAX_EVENTS_LIMIT = 100;
const DEFAULT_EVENTS_LIMIT = 50;
const ROLE = /^[a-z_-]{1,32}$/;

function shown(value: string): string {
  const clean = [...value].map((c) => (c < ' ' || c === '\u007f' ? '?' : c)).join('');
  return JSON.stringify(clean.length > 40 ? `${clean.slice(0, 40)}…` : clean);
}

export function parseTime(name: string, raw: string | undefined): Date | null {
  if (raw === undefined) return null;
  const ms = ISO_TIME.test(raw) ? Date.parse(raw) : Number.NaN;
  if (Number.isNaN(ms)) {
    throw new BadRequest(
      `${name} must be an ISO 8601 time such as 2026-11-01 or 2026-11-01T10:00:00Z (got ${shown(raw)})`,
    );
  }
  return new Date(ms);
}

/**
 * `from`/`to`: both optional; `from` after `to` is refused, and so is a `from` before the
 * retention window (that history was deleted on purpose: an empty answer would look like calm).
 */
export function parseRange(query: Map<string, string>, retentionStart: Date | null): Range {
  const from = parseTime('from', query.get('from'));
  const to = parseTime('to', query.get('to'));
  if (from && to && from > to) {
    throw new BadRequest(`from (${from.toISOString()}) is after to (${to.toISOString()})`);
  }
  if (retentionStart && to && to < retentionStart) {
    throw new BadRequest(
      `to is before the history kept (HISTORY_RETENTION_DAYS: since ${retentionStart.toISOString()})`,
    );
  }
  if (retentionStart && from && from < retentionStart) {
    throw new BadRequest(
      `from is before the history kept (HISTORY_RETENTION_DAYS: since ${retentionStart.toISOString()})`,
    );
  }
  return { from, to };
}

export function parseSince(raw: string | undefined, retentionStart: Date | null): Since {
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
  if (retentionStart && at < retentionStart) {
    throw new BadRequest(
      `since is before the history kept (HISTORY_RETENTION_DAYS: since ${retentionStart.toISOString()})`,
    );
  }
  return { kind: 'time', at };
}

export function parseEventQuery(
  query: Map<string, string>,
  retentionStart: Date | null,
): EventQuery {
  const range = parseRange(query, retentionStart);
  const rawIso = query.get('iso');
  const q = query.get('q');
  if (q !== undefined && (q.trim() === '' || q.length > MAX_Q)) {
    throw new BadRequest(`q must be 1 to ${MAX_Q} characters of search text`);
  }
  const role = query.get('role');
  if (role !== undefined && !ROLE.test(role)) {
    throw new BadRequest(`role must be a role label such as locus or actor (got ${shown(role)})`);
  }
  const rawBreaking = query.get('breaking');
  let breaking: boolean | null = null;
  if (rawBreaking !== undefined) {
    if (!['true', 'false', '1', '0'].includes(rawBreaking)) {
      throw new BadRequest(`breaking must be true or false (got ${shown(rawBreaking)})`);
    }
    breaking = rawBreaking === 'true' || rawBreaking === '1';
  }
  const rawCursor = query.get('cursor');
  const before = rawCursor === undefined ? null : decodeCursor(rawCursor);
  if (rawCursor !== undefined && !before) {
    throw new BadRequest('cursor is not one this server gave out (pass next_cursor unchanged)');
  }
  const rawLimit = query.get('limit');
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
    iso: rawIso === undefined ? null : parseIso(rawIso),
    q: q?.trim() ?? null,
    role: role ?? null,
    breaking,
    before,
    limit,
    ...range,
  };
}
