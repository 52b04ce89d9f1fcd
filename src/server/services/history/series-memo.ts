import type {
  CountryHistoryPoint,
  GlobalHistoryPoint,
  HistoryCoverage,
} from '../../../shared/history-api.js';
import type { CountryRow, HistoryStore, Range } from '../../store/history-store.js';
import type { MethodMark } from '../../../shared/method-api.js';
import { selectMethodChanges } from '../../store/method-changes.js';
import { RevisionMemo, type MemoLimits } from './revision-memo.js';

/**
 * The whole global series of one store revision, oldest first: each point's time, and the point
 * in the API's shape as JSON (an answer is the slice joined: nothing is serialised per request).
 */
export interface GlobalSeries {
  coverage: HistoryCoverage;
  asOf: string[];
  pointsJson: string[];
  /** Batches with country rows, oldest first (what /api/changes compares). */
  recorded: { id: number; asOf: Date }[];
}

/** A country's whole series of one store revision, oldest first (points as JSON, as above). */
export interface CountrySeries {
  coverage: HistoryCoverage;
  first: Date | null;
  last: Date | null;
  asOf: string[];
  pointsJson: string[];
  /** The country's name at each point (the answer names it as of its last point). */
  names: (string | null)[];
}

/** What /api/changes compares of each country row: all the memo holds of it. */
const COMPARED_FIELDS = ['iso', 'name', 'risk', 'tier', 'static', 'active', 'categories'] as const;
export type ComparedRow = Pick<CountryRow, (typeof COMPARED_FIELDS)[number]>;

/** A copy of `from` with only `keys`. */
function pick<T, K extends keyof T>(from: T, keys: readonly K[]): Pick<T, K> {
  const picked = {} as Pick<T, K>;
  for (const key of keys) picked[key] = from[key];
  return picked;
}

export interface SeriesMemoLimits {
  /**
   * The global series and each country's: a point is ~850 characters (ten categories), so 90
   * days of a demo country count ~0.3 MB and 56 MB holds all 168 countries; a two-year series
   * counts ~2.5 MB (~22 held at once, the rest read again when asked).
   */
  series: MemoLimits;
  /** Country rows of single batches (168 demo rows count ~0.27 MB). */
  batchRows: MemoLimits;
}

export const SERIES_MEMO_LIMITS: SeriesMemoLimits = {
  series: { maxEntries: 512, maxBytes: 56 * 1024 * 1024 },
  batchRows: { maxEntries: 16, maxBytes: 8 * 1024 * 1024 },
};

/** Half-open search: the first index whose time is not before `at` (or after it: `after`). */
function bound(times: string[], at: string, after: boolean): number {
  let low = 0;
  let high = times.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    const asOf = times[mid] ?? '';
    if (asOf < at || (after && asOf === at)) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * Indexes [start, end) of the times (ISO, oldest first) in `range`, both edges inclusive as in
 * the store's SQL.
 */
export function rangeIndexes(times: string[], range: Range): [number, number] {
  const start = range.from ? bound(times, range.from.toISOString(), false) : 0;
  const end = range.to ? bound(times, range.to.toISOString(), true) : times.length;
  return [start, Math.max(start, end)];
}

const charsOf = (texts: string[]): number => texts.reduce((sum, text) => sum + text.length, 0);

/**
 * A country's and the global series change only with a batch: each is read whole, once per store
 * revision, and every range is sliced from it in memory, so a question for any `from`/`to` costs
 * no query once its series is held. /api/changes takes the two batches' rows from a small memo
 * of single batches. Everything held is dropped when the store's batch revision moves.
 */
export class SeriesMemo {
  readonly #series: RevisionMemo<GlobalSeries | CountrySeries>;
  readonly #batchRows: RevisionMemo<ComparedRow[]>;
  /** The method changes with their decisions: one entry, a few hundred bytes. */
  readonly #methods = new RevisionMemo<MethodMark[]>({ maxEntries: 1, maxBytes: 1024 * 1024 });

  constructor(
    private readonly store: HistoryStore,
    private readonly coverage: () => Promise<HistoryCoverage>,
    limits: SeriesMemoLimits = SERIES_MEMO_LIMITS,
  ) {
    this.#series = new RevisionMemo(limits.series);
    this.#batchRows = new RevisionMemo(limits.batchRows);
  }

  /** Entries and approximate bytes held (tests and the benchmark). */
  get held(): { series: number; seriesBytes: number; batchRows: number; batchRowsBytes: number } {
    return {
      series: this.#series.entries,
      seriesBytes: this.#series.bytes,
      batchRows: this.#batchRows.entries,
      batchRowsBytes: this.#batchRows.bytes,
    };
  }

  global(revision: number, enter: () => Promise<void>): Promise<GlobalSeries> {
    return this.#series.get(revision, 'global', enter, async () => {
      const rows = await this.store.batches({ from: null, to: null });
      const pointsJson = rows.map((row) => {
        const point: GlobalHistoryPoint = {
          as_of: row.asOf.toISOString(),
          index: row.globalIndex,
          static: row.globalStatic,
          active: row.globalActive,
          events_24h: row.events24h,
          tier: row.globalTier,
          ...(row.tierCounts ? { tier_counts: row.tierCounts } : {}),
        };
        return JSON.stringify(point);
      });
      const recorded = rows
        .filter((row) => row.countryCount > 0)
        .map((row) => ({ id: row.id, asOf: row.asOf }));
      const asOf = rows.map((row) => row.asOf.toISOString());
      const value = { coverage: await this.coverage(), asOf, pointsJson, recorded };
      return { value, chars: charsOf(pointsJson) + 80 * rows.length };
    }) as Promise<GlobalSeries>;
  }

  country(code: string, revision: number, enter: () => Promise<void>): Promise<CountrySeries> {
    return this.#series.get(revision, `country|${code}`, enter, async () => {
      const history = await this.store.countryHistory(code, { from: null, to: null });
      const value: CountrySeries = {
        coverage: await this.coverage(),
        first: history.first,
        last: history.last,
        asOf: history.points.map((point) => point.as_of),
        pointsJson: history.points.map((point) => {
          const shaped: CountryHistoryPoint = {
            as_of: point.as_of,
            risk: point.risk,
            tier: point.tier,
            static: point.static,
            active: point.active,
            confidence: point.confidence,
            categories: point.categories,
          };
          return JSON.stringify(shaped);
        }),
        names: history.points.map((point) => point.name),
      };
      return { value, chars: charsOf(value.pointsJson) + 40 * value.asOf.length };
    }) as Promise<CountrySeries>;
  }

  /**
   * The provider's method changes (issue 31) as every history answer carries them, held with
   * the series: an answer from what is held asks the store nothing. A decision that one is
   * comparable moves the batch revision (HistoryStore.methodDecided), so it shows at once.
   */
  methods(revision: number, enter: () => Promise<void>): Promise<MethodMark[]> {
    return this.#methods.get(revision, 'methods', enter, async () => {
      const value = (await selectMethodChanges(this.store.db)).map((row) => ({
        as_of: row.asOf.toISOString(),
        from: row.from,
        to: row.to,
        comparable: row.comparable,
      }));
      return { value, chars: JSON.stringify(value).length };
    });
  }

  /** One batch's country rows, as /api/changes compares them. */
  batchRows(batchId: number, revision: number, enter: () => Promise<void>) {
    return this.#batchRows.get(revision, String(batchId), enter, async () => {
      const rows = await this.store.countryRows(batchId);
      const value = rows.map((row) => pick(row, COMPARED_FIELDS));
      return { value, chars: JSON.stringify(value).length };
    });
  }
}
