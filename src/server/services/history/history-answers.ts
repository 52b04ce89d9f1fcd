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
import { BadRequest } from '../../refusals.js';
import type { StoreQueryGuard } from '../../store-question-limit.js';
import type { EventQuery, HistoryStore, Range } from '../../store/history-store.js';
import { lazyGuard, RevisionMemo } from './revision-memo.js';
import { changesBetween, type MethodMark } from '../../../shared/method-api.js';
import {
  rangeIndexes,
  SeriesMemo,
  type ComparedRow,
  type GlobalSeries,
  type SeriesMemoLimits,
} from './series-memo.js';

/** `since` of /api/changes, parsed: the previous batch, or a time. */
export type Since =
  { kind: 'previous' } | { kind: 'span'; ms: number } | { kind: 'time'; at: Date };

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());
const MAX_MOVES = 3;
/** Comparisons of two batches (~0.1 MB each as counted) and event pages (up to ~0.3 MB). */
const COMPARISON_LIMITS = { maxEntries: 128, maxBytes: 8 * 1024 * 1024 };
const EVENT_LIMITS = { maxEntries: 256, maxBytes: 8 * 1024 * 1024 };
/** Callers that are not a client's request (the benchmark, tests of the answers alone). */
const UNGUARDED: StoreQueryGuard = () => Promise.resolve(() => undefined);

/** /api/changes between two batches, whatever `since` chose them. */
type Comparison = Pick<
  ChangesResponse,
  'from_batch' | 'to_batch' | 'countries' | 'entered' | 'left'
>;

/**
 * Builds the history API's bodies from the store, memoised per store revision so that a
 * question costs no query once what it needs is held: the global and each country's series are
 * held whole and sliced by `from`/`to` (series-memo.ts), /api/changes is held per pair of
 * batches, event pages per question. Only a build asks the store, so only a build passes the
 * request's guard (its client's rate and the bound on queries in flight), once per request; an
 * answer from memos is never limited. Relative `since` spans count back from the newest recorded
 * batch (so the answer, too, only changes with a batch).
 */
export class HistoryAnswers {
  readonly #series: SeriesMemo;
  readonly #comparisons = new RevisionMemo<string>(COMPARISON_LIMITS);
  readonly #events = new RevisionMemo<string>(EVENT_LIMITS);

  constructor(
    private readonly store: HistoryStore,
    coverage: () => Promise<HistoryCoverage>,
    limits?: SeriesMemoLimits,
  ) {
    this.#series = new SeriesMemo(store, coverage, limits);
  }

  /** What the series memos hold (tests and the benchmark). */
  get held(): SeriesMemo['held'] {
    return this.#series.held;
  }

  /** Runs `work` with the request's guard taken on its first build only. */
  async #guarded<T>(guard: StoreQueryGuard, work: (enter: () => Promise<void>) => Promise<T>) {
    const lazy = lazyGuard(guard);
    try {
      return await work(lazy.enter);
    } finally {
      lazy.release();
    }
  }

  /** The global series in `range`, as the JSON the route sends. */
  globalHistoryJson(range: Range, guard = UNGUARDED): Promise<string> {
    const revision = this.store.batchRevision;
    return this.#guarded(guard, async (enter) => {
      const series = await this.#series.global(revision, enter);
      const [start, end] = rangeIndexes(series.asOf, range);
      const head = {
        ok: true as const,
        from: iso(range.from),
        to: iso(range.to),
        coverage: series.coverage,
        method_changes: await this.#series.methods(revision, enter),
      };
      return withPoints(head, series.pointsJson.slice(start, end));
    });
  }

  /** The method changes held, with their decisions, from the memo (explanations read them). */
  methodMarks(guard = UNGUARDED): Promise<MethodMark[]> {
    const revision = this.store.batchRevision;
    return this.#guarded(guard, (enter) => this.#series.methods(revision, enter));
  }

  async globalHistory(range: Range, guard = UNGUARDED): Promise<GlobalHistoryResponse> {
    return JSON.parse(await this.globalHistoryJson(range, guard)) as GlobalHistoryResponse;
  }

  /** A country's series in `range`, as the JSON the route sends. */
  countryHistoryJson(code: string, range: Range, guard = UNGUARDED): Promise<string> {
    const revision = this.store.batchRevision;
    return this.#guarded(guard, async (enter) => {
      const series = await this.#series.country(code, revision, enter);
      const [start, end] = rangeIndexes(series.asOf, range);
      const head = {
        ok: true as const,
        iso: code,
        name: end > start ? (series.names[end - 1] ?? null) : null,
        from: iso(range.from),
        to: iso(range.to),
        first_seen: iso(series.first),
        last_seen: iso(series.last),
        coverage: series.coverage,
        method_changes: await this.#series.methods(revision, enter),
      };
      return withPoints(head, series.pointsJson.slice(start, end));
    });
  }

  async countryHistory(
    code: string,
    range: Range,
    guard = UNGUARDED,
  ): Promise<CountryHistoryResponse> {
    return JSON.parse(await this.countryHistoryJson(code, range, guard)) as CountryHistoryResponse;
  }

  /**
   * /api/changes as the JSON the route sends: the newest batch (or the newest at or before
   * `asOf`) against the one `since` names, counted back from it.
   */
  changesJson(
    since: Since,
    sinceText: string,
    guard = UNGUARDED,
    asOf: Date | null = null,
  ): Promise<string> {
    const revision = this.store.batchRevision;
    return this.#guarded(guard, async (enter) => {
      const { to, from } = asOf
        ? await this.#pairAsOf(since, asOf, enter)
        : pairOf(since, (await this.#series.global(revision, enter)).recorded);
      // The comparison as JSON, from `{"from_batch":` on; `since` is put before it.
      const comparison =
        to && from
          ? await this.#comparisons.get(revision, `${from.id}|${to.id}`, enter, async () => {
              const [thenRows, nowRows] = [
                await this.#series.batchRows(from.id, revision, enter),
                await this.#series.batchRows(to.id, revision, enter),
              ];
              const value = JSON.stringify({
                ...batchNames(from, to, await this.store.chainIds([from.id, to.id])),
                ...compareBatches(thenRows, nowRows),
              } satisfies Comparison);
              return { value, chars: value.length };
            })
          : JSON.stringify({
              ...batchNames(from, to, await this.store.chainIds(to ? [to.id] : [])),
              countries: [],
              entered: [],
              left: [],
            });
      const head = asOf && to ? `"as_of":${JSON.stringify(to.asOf.toISOString())},` : '';
      const crossed =
        from && to
          ? changesBetween(
              await this.#series.methods(revision, enter),
              from.asOf.toISOString(),
              to.asOf.toISOString(),
            )
          : [];
      const methods = `"method_changes":${JSON.stringify(crossed)},`;
      return `{"ok":true,"since":${JSON.stringify(sinceText)},${head}${methods}${comparison.slice(1)}`;
    });
  }

  /**
   * The two batches a question as of a past batch compares, by two indexed lookups: reading the
   * whole global series (1,460 batches at two years) for them made the first as-of overview
   * after a start take ~260 ms.
   */
  async #pairAsOf(since: Since, asOf: Date, enter: () => Promise<void>): Promise<BatchPair> {
    await enter();
    const to = await this.store.batchAtOrBefore(asOf);
    if (!to) {
      const first = this.store.lastCoverage.since;
      throw new BadRequest(
        first
          ? `as_of ${asOf.toISOString()} is before the first recorded batch (${first})`
          : `as_of ${asOf.toISOString()}: no batch is recorded yet`,
      );
    }
    const at =
      since.kind === 'previous'
        ? to.asOf.getTime() - 1
        : since.kind === 'span'
          ? to.asOf.getTime() - since.ms
          : Math.min(since.at.getTime(), to.asOf.getTime());
    const from = await this.store.batchAtOrBefore(new Date(at));
    return { to: ref(to), from: from ? ref(from) : null };
  }

  async changes(
    since: Since,
    sinceText: string,
    guard = UNGUARDED,
    asOf: Date | null = null,
  ): Promise<ChangesResponse> {
    return JSON.parse(await this.changesJson(since, sinceText, guard, asOf)) as ChangesResponse;
  }

  /** An event page as the JSON the route sends; `queryText` (the parsed query) is its key. */
  eventsJson(query: EventQuery, queryText: string, guard = UNGUARDED): Promise<string> {
    const revision = this.store.eventRevision;
    return this.#guarded(guard, (enter) =>
      this.#events.get(revision, queryText, enter, async () => {
        const rows = await this.store.events(query);
        const page = rows.slice(0, query.limit);
        const last = page.at(-1);
        const value = JSON.stringify({
          ok: true as const,
          events: page.map((row): ArchivedEvent => ({
            ...row.payload,
            ts: row.ts.toISOString(),
            headline: row.headline,
            iso: row.iso,
            countries: row.countries,
            first_seen: row.firstSeen.toISOString(),
          })),
          next_cursor: rows.length > query.limit && last ? encodeCursor(last.ts, last.id) : null,
        } satisfies EventsResponse);
        return { value, chars: value.length };
      }),
    );
  }

  async events(query: EventQuery, queryText: string, guard = UNGUARDED): Promise<EventsResponse> {
    return JSON.parse(await this.eventsJson(query, queryText, guard)) as EventsResponse;
  }
}

/** `head` as JSON with `"points"` last: the points' JSON, held per point, joined. */
function withPoints(head: object, pointsJson: string[]): string {
  return `${JSON.stringify(head).slice(0, -1)},"points":[${pointsJson.join(',')}]}`;
}

/** Index of the newest recorded batch at or before `at` (the list is oldest first), or -1. */
function atOrBeforeIndex(recorded: GlobalSeries['recorded'], at: number): number {
  let low = 0;
  let high = recorded.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if ((recorded[middle]?.asOf.getTime() ?? Infinity) <= at) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}

type BatchRef = GlobalSeries['recorded'][number];
interface BatchPair {
  to: BatchRef | null;
  from: BatchRef | null;
}

const ref = (batch: { id: number; asOf: Date }): BatchRef => ({ id: batch.id, asOf: batch.asOf });

/** The newest recorded batch and the one `since` names, counted back from it. */
function pairOf(since: Since, recorded: GlobalSeries['recorded']): BatchPair {
  const to = recorded.at(-1) ?? null;
  let from = null;
  if (to && since.kind === 'previous') from = recorded.at(-2) ?? null;
  else if (to && since.kind === 'span') from = atOrBefore(recorded, to.asOf.getTime() - since.ms);
  else if (to && since.kind === 'time') from = atOrBefore(recorded, since.at.getTime());
  return { to, from };
}

/** The newest recorded batch at or before `at` (the list is oldest first). */
function atOrBefore(
  recorded: GlobalSeries['recorded'],
  at: number,
): GlobalSeries['recorded'][number] | null {
  return recorded[atOrBeforeIndex(recorded, at)] ?? null;
}

function batchNames(
  from: { id: number; asOf: Date } | null,
  to: { id: number; asOf: Date } | null,
  ids: Map<number, string>,
): Pick<Comparison, 'from_batch' | 'to_batch'> {
  const ref = (batch: { id: number; asOf: Date }) => ({
    as_of: batch.asOf.toISOString(),
    id: ids.get(batch.id) ?? null,
  });
  return { from_batch: from ? ref(from) : null, to_batch: to ? ref(to) : null };
}

function compareBatches(
  thenRows: ComparedRow[],
  nowRows: ComparedRow[],
): Pick<Comparison, 'countries' | 'entered' | 'left'> {
  const body: Pick<Comparison, 'countries' | 'entered' | 'left'> = {
    countries: [],
    entered: [],
    left: [],
  };
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

function snapshot(row: ComparedRow) {
  return { risk: row.risk, tier: row.tier, static: row.static, active: row.active };
}

function compare(before: ComparedRow, after: ComparedRow): CountryChange {
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
