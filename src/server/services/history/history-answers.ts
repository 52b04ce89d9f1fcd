import { LRUCache } from 'lru-cache';
import type {
  ArchivedEvent,
  CategoryMove,
  ChangesResponse,
  CountryChange,
  CountryHistoryResponse,
  EventsResponse,
  GlobalHistoryResponse,
  HistoryCoverage,
} from '../../../shared/history-api.js';
import type { Categories } from '../../../shared/schemas/category.js';
import { tierDirection } from '../../../shared/tiers.js';
import type { StoreQueryGuard } from '../../store-query-limit.js';
import type { CountryRow, EventQuery, HistoryStore, Range } from '../../store/history-store.js';

/** `since` of /api/changes, parsed: the previous batch, or a time. */
export type Since =
  { kind: 'previous' } | { kind: 'span'; ms: number } | { kind: 'time'; at: Date };

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());
const MAX_MOVES = 3;
const MEMO_ENTRIES = 256;
/** A country's two-year history with categories is ~0.7 MB: bound the memo in bytes too. */
const MEMO_BYTES = 64 * 1024 * 1024;
/** A country history's fields around its points (names, dates, coverage), generously. */
const ENVELOPE_CHARS = 1024;
/** Callers that are not a client's request (the benchmark, tests of the answers alone). */
const UNGUARDED: StoreQueryGuard = () => Promise.resolve(() => undefined);

/**
 * Builds the history API's bodies from the store. Answers are memoised per store revision: a
 * repeated question between two batches costs no query; any write makes them be built again.
 * Only a build asks the store, so only a build passes the request's guard (its client's rate and
 * the bound on queries in flight); a memoised answer is never limited.
 * Relative `since` spans count back from the newest recorded batch (so the answer, too, only
 * changes with a batch).
 */
export class HistoryAnswers {
  readonly #memo = new LRUCache<string, { body: object; size: number }>({
    max: MEMO_ENTRIES,
    maxSize: MEMO_BYTES,
    sizeCalculation: (entry) => entry.size,
  });

  constructor(
    private readonly store: HistoryStore,
    private readonly coverage: () => Promise<HistoryCoverage>,
  ) {}

  async #memoised<T extends object>(
    key: string,
    revision: number,
    guard: StoreQueryGuard,
    build: () => Promise<T>,
    /** Characters of the body as JSON when the builder knows them (a country's history). */
    knownLength?: () => number,
  ): Promise<T> {
    const full = `${revision}|${key}`;
    const hit = this.#memo.get(full);
    if (hit) return hit.body as T;
    const release = await guard();
    let body: T;
    try {
      // Another request may have built it while this one waited for its turn.
      const built = this.#memo.get(full);
      if (built) return built.body as T;
      body = await build();
    } finally {
      release();
    }
    // Measured once per build (answers change only with a batch); 2 bytes a character.
    const length = knownLength?.() ?? JSON.stringify(body).length;
    this.#memo.set(full, { body, size: Math.max(1, length * 2) });
    return body;
  }

  globalHistory(range: Range, guard = UNGUARDED): Promise<GlobalHistoryResponse> {
    return this.#memoised(
      `global|${iso(range.from)}|${iso(range.to)}`,
      this.store.batchRevision,
      guard,
      async () => {
        const rows = await this.store.batches(range);
        return {
          ok: true as const,
          from: iso(range.from),
          to: iso(range.to),
          coverage: await this.coverage(),
          points: rows.map((row) => ({
            as_of: row.asOf.toISOString(),
            index: row.globalIndex,
            static: row.globalStatic,
            active: row.globalActive,
            events_24h: row.events24h,
            tier: row.globalTier,
            ...(row.tierCounts ? { tier_counts: row.tierCounts } : {}),
          })),
        };
      },
    );
  }

  countryHistory(code: string, range: Range, guard = UNGUARDED): Promise<CountryHistoryResponse> {
    const key = `country|${code}|${iso(range.from)}|${iso(range.to)}`;
    // The points' JSON length from the store, plus the envelope (a 1.2 MB answer took 10–50 ms
    // to serialise only to be measured).
    let length = 0;
    const build = async (): Promise<CountryHistoryResponse> => {
      const history = await this.store.countryHistory(code, range);
      length = history.bytes + ENVELOPE_CHARS;
      return {
        ok: true as const,
        iso: code,
        name: history.points.at(-1)?.name ?? null,
        from: iso(range.from),
        to: iso(range.to),
        first_seen: iso(history.first),
        last_seen: iso(history.last),
        coverage: await this.coverage(),
        points: history.points.map((point) => ({
          as_of: point.as_of,
          risk: point.risk,
          tier: point.tier,
          static: point.static,
          active: point.active,
          confidence: point.confidence,
          categories: point.categories,
        })),
      };
    };
    return this.#memoised(key, this.store.batchRevision, guard, build, () => length);
  }

  changes(since: Since, sinceText: string, guard = UNGUARDED): Promise<ChangesResponse> {
    const key = `changes|${sinceText}`;
    return this.#memoised(key, this.store.batchRevision, guard, async () => {
      const to = await this.store.batchAtOrBefore(null);
      let from = null;
      if (to && since.kind === 'previous') from = (await this.store.latestBatches(2))[1] ?? null;
      else if (to && since.kind === 'span') {
        from = await this.store.batchAtOrBefore(new Date(to.asOf.getTime() - since.ms));
      } else if (to && since.kind === 'time') from = await this.store.batchAtOrBefore(since.at);
      const body: ChangesResponse = {
        ok: true,
        since: sinceText,
        from_batch: from ? { as_of: from.asOf.toISOString() } : null,
        to_batch: to ? { as_of: to.asOf.toISOString() } : null,
        countries: [],
        entered: [],
        left: [],
      };
      if (!to || !from) return body;
      const [thenRows, nowRows] = await Promise.all([
        this.store.countryRows(from.id),
        this.store.countryRows(to.id),
      ]);
      const then = new Map(thenRows.map((row) => [row.iso, row]));
      const now = new Map(nowRows.map((row) => [row.iso, row]));
      for (const [code, row] of now) {
        const before = then.get(code);
        if (before) body.countries.push(compare(before, row));
        else body.entered.push({ iso: code, name: row.name });
      }
      for (const [code, row] of then) {
        if (!now.has(code)) body.left.push({ iso: code, name: row.name });
      }
      body.countries.sort(
        (a, b) =>
          Math.abs(b.delta_risk ?? 0) - Math.abs(a.delta_risk ?? 0) || a.iso.localeCompare(b.iso),
      );
      body.entered.sort((a, b) => a.iso.localeCompare(b.iso));
      body.left.sort((a, b) => a.iso.localeCompare(b.iso));
      return body;
    });
  }

  events(query: EventQuery, queryText: string, guard = UNGUARDED): Promise<EventsResponse> {
    return this.#memoised(`events|${queryText}`, this.store.eventRevision, guard, async () => {
      const rows = await this.store.events(query);
      const page = rows.slice(0, query.limit);
      const last = page.at(-1);
      return {
        ok: true as const,
        events: page.map((row): ArchivedEvent => ({
          ...row.payload,
          ts: row.ts.toISOString(),
          headline: row.headline,
          iso: row.iso,
          first_seen: row.firstSeen.toISOString(),
        })),
        next_cursor: rows.length > query.limit && last ? encodeCursor(last.ts, last.id) : null,
      };
    });
  }
}

const diff = (a: number | null, b: number | null): number | null =>
  a === null || b === null ? null : round2(b - a);

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

function categoryMoves(before: Categories | null, after: Categories | null): CategoryMove[] {
  if (!before || !after) return [];
  const moves: CategoryMove[] = [];
  for (const [name, now] of Object.entries(after)) {
    const then = before[name];
    const delta = diff(then?.score ?? null, now.score ?? null);
    if (delta === null || delta === 0) continue;
    moves.push({
      category: name,
      delta,
      delta_active: diff(then?.active ?? null, now.active ?? null),
    });
  }
  moves.sort(
    (a, b) => Math.abs(b.delta) - Math.abs(a.delta) || a.category.localeCompare(b.category),
  );
  return moves.slice(0, MAX_MOVES);
}

function snapshot(row: CountryRow) {
  return { risk: row.risk, tier: row.tier, static: row.static, active: row.active };
}

function compare(before: CountryRow, after: CountryRow): CountryChange {
  return {
    iso: after.iso,
    name: after.name,
    then: snapshot(before),
    now: snapshot(after),
    delta_risk: diff(before.risk, after.risk),
    delta_active: diff(before.active, after.active),
    tier_change: tierDirection(before.tier, after.tier),
    top_categories: categoryMoves(before.categories, after.categories),
  };
}

export function encodeCursor(ts: Date, id: number): string {
  return Buffer.from(`${ts.toISOString()}|${id}`, 'utf8').toString('base64url');
}

/** The keyset position a cursor names, or null when it is not one of ours. */
export function decodeCursor(text: string): { ts: Date; id: number } | null {
  if (!/^[A-Za-z0-9_-]{1,80}$/.test(text)) return null;
  const match = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)\|(\d{1,15})$/.exec(
    Buffer.from(text, 'base64url').toString('utf8'),
  );
  if (!match?.[1] || !match[2]) return null;
  const ts = new Date(match[1]);
  return Number.isNaN(ts.getTime()) ? null : { ts, id: Number(match[2]) };
}
