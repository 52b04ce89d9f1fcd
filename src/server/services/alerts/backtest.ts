import { setImmediate as nextTurn } from 'node:timers/promises';
import { ruleKey, type AlertNumbers, type AlertRule } from '../../../shared/alerts-api.js';
import {
  BACKTEST_ALERTS_LISTED,
  BACKTEST_BATCHES_LISTED,
  BACKTEST_RECENT_DAYS,
  type BacktestMethodChange,
  type BacktestResponse,
} from '../../../shared/backtest-api.js';
import {
  selectBatchRefs,
  selectBreakingEventsSince,
  type BatchRef,
  type BreakingEvent,
} from '../../store/alerts.js';
import { selectRuleNumbers } from '../../store/batches.js';
import type { Database } from '../../store/connection.js';
import { firings, type RuleInput } from './alert-rules.js';
import { BEFORE_LOOKBACK_MS } from './alert-views.js';
import { heldAcrossMethodChange } from './method-notice.js';
import { selectMethodChanges, type MethodChangeRow } from '../../store/method-changes.js';
import { DAY_MS } from '../../../shared/durations.js';
import { TimeSlice } from '../../work/time-slice.js';
import { ApiProblem } from '../../refusals.js';
import { selectWeightVersions, type TeamIndexes } from '../../store/team-index.js';
import { teamIndexOverHistory } from '../team-index/team-history.js';
import { VERSIONS_HELD } from '../team-index/team-weights.js';

/**
 * Batches whose numbers are read per query (~175 rows each): ~40 ms of the main thread a read
 * with PGlite, so requests are answered between reads while the archive fills.
 */
const BATCHES_PER_READ = 25;
/** Breaking events read for one backtest (the newest windows beyond it see none). */
const MAX_BREAKING_EVENTS = 50_000;

/** One batch's numbers of every country, as the rules read them. */
type BatchNumbers = Map<string, AlertNumbers>;

/**
 * The numbers alert rules read (risk, tier, active) of every recorded batch, held in memory by
 * batch id so a backtest reads the store only for batches it has not seen (a batch's rows never
 * change once recorded; retention's removals are dropped). Bounded by the history kept: about
 * 175 small records a batch, ~40 MB for two years at two batches a day. `warm()` fills it in the
 * background after start-up: reading two years takes seconds (the table is ~400 MB on disk),
 * which the first backtest a person runs would otherwise wait for.
 */
export class RuleNumbersArchive {
  readonly #byBatch = new Map<number, BatchNumbers>();
  /** The fill in progress: a backtest and the warm-up share it. */
  #filling: Promise<void> | null = null;
  #stopped = false;

  constructor(private readonly db: Database) {}

  /** Fills the archive in the background; failures are left to the next backtest. */
  warm(): Promise<void> {
    return this.all().then(
      () => undefined,
      () => undefined,
    );
  }

  /** Stops filling after the read in progress (the store is closing). */
  stop(): void {
    this.#stopped = true;
  }

  /** Every batch with country rows, oldest first, with its numbers. */
  async all(): Promise<{ batch: BatchRef; numbers: BatchNumbers }[]> {
    const refs = await selectBatchRefs(this.db);
    const held = new Set(refs.map((ref) => ref.id));
    for (const id of this.#byBatch.keys()) if (!held.has(id)) this.#byBatch.delete(id);
    for (;;) {
      // Joining a fill in progress, then reading whatever it did not cover.
      while (this.#filling) await this.#filling;
      const missing = refs.filter((ref) => !this.#byBatch.has(ref.id));
      if (missing.length === 0 || this.#stopped) break;
      this.#filling = this.#fill(missing).finally(() => {
        this.#filling = null;
      });
    }
    return refs.map((batch) => ({ batch, numbers: this.#byBatch.get(batch.id) ?? new Map() }));
  }

  async #fill(missing: BatchRef[]): Promise<void> {
    for (let i = 0; i < missing.length && !this.#stopped; i += BATCHES_PER_READ) {
      if (i > 0) await nextTurn();
      const chunk = missing.slice(i, i + BATCHES_PER_READ);
      const read = await selectRuleNumbers(
        this.db,
        chunk.map((ref) => ref.id),
      );
      for (const ref of chunk) {
        const asOf = ref.asOf.toISOString();
        const numbers: BatchNumbers = new Map();
        for (const [iso, risk, tier, active] of read.get(ref.id) ?? []) {
          numbers.set(iso, { as_of: asOf, risk, tier, active });
        }
        this.#byBatch.set(ref.id, numbers);
      }
    }
  }
}

/**
 * Breaking events in (previous batch, this batch], newest first, as the evaluator has them, from
 * `events` (oldest first) read on from `from`; `next` is where the next batch's window starts.
 */
function breakingWindow(
  events: readonly BreakingEvent[],
  from: number,
  previous: BatchRef | null,
  batch: BatchRef,
): { events: Map<string, BreakingEvent[]>; next: number } {
  const window = new Map<string, BreakingEvent[]>();
  let at = from;
  while (at < events.length) {
    const event = events[at];
    if (!event || event.ts > batch.asOf) break;
    at += 1;
    if (previous && event.ts <= previous.asOf) continue;
    const own = window.get(event.iso);
    if (own) own.unshift(event);
    else window.set(event.iso, [event]);
  }
  return { events: window, next: at };
}

/** Counts a batch for each tallied country in it, and its |Δ active| since the one before. */
function countBatch(
  tallies: Map<string, CountryTally>,
  numbers: BatchNumbers,
  before: (iso: string) => AlertNumbers | undefined,
): void {
  for (const [iso, tally] of tallies) {
    const after = numbers.get(iso);
    if (!after) continue;
    tally.batches += 1;
    const was = before(iso)?.active;
    if (was != null && after.active != null) tally.deltas.push(Math.abs(after.active - was));
  }
}

/** A country's latest numbers and the batch they are from. */
interface LastSeen {
  numbers: AlertNumbers;
  batch: BatchRef;
}

/**
 * What each tallied country is compared with, as the live evaluator has it (jobs/alert-before.ts):
 * its row in the previous batch, or, when that batch lacks it (recorded from the hotspots alone),
 * its latest row of the week before. Carried from batch to batch, so no store read is needed.
 */
class Before {
  readonly #seen = new Map<string, LastSeen>();
  #previous: BatchRef | null = null;

  get previous(): BatchRef | null {
    return this.#previous;
  }

  of(iso: string): LastSeen | undefined {
    const seen = this.#seen.get(iso);
    if (!seen || !this.#previous) return undefined;
    const since = this.#previous.asOf.getTime() - BEFORE_LOOKBACK_MS;
    return seen.batch.asOf.getTime() >= since ? seen : undefined;
  }

  /**
   * `batch` becomes the previous one. A method change (not marked comparable) ends what is
   * carried: a row from before it is never compared with one after (the hold sees only the two
   * batches either side of the change).
   */
  advance(
    countries: readonly string[],
    batch: BatchRef,
    numbers: BatchNumbers,
    methodChange: boolean,
  ): void {
    if (methodChange) this.#seen.clear();
    for (const iso of countries) {
      const own = numbers.get(iso);
      if (own) this.#seen.set(iso, { numbers: own, batch });
    }
    this.#previous = batch;
  }
}

/** One country's part of the answer: per rule how often it fired, and the suggested delta. */
function countryAnswer(
  iso: string,
  keys: readonly string[],
  tally: CountryTally | undefined,
): BacktestResponse['countries'][number] {
  return {
    iso,
    batches: tally?.batches ?? 0,
    rules: keys.map((key) => {
      const fired = tally?.fired.get(key) ?? [];
      return {
        rule: key,
        count: fired.length,
        last_90_days: tally?.recent.get(key) ?? 0,
        batches: fired.slice(-BACKTEST_BATCHES_LISTED).reverse(),
      };
    }),
    suggested_min_abs_delta: percentile95(tally?.deltas ?? []),
  };
}

/** A country's numbers with its team index in `batch` (null when it has none). */
function withTeam(
  numbers: AlertNumbers,
  team: Map<number, TeamIndexes>,
  batch: BatchRef,
  iso: string,
): AlertNumbers {
  return { ...numbers, team: team.get(batch.id)?.get(iso) ?? null };
}

/** The 95th percentile (nearest rank) of `values`, to one decimal; null when there are none. */
export function percentile95(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil(0.95 * sorted.length);
  return Math.round((sorted[rank - 1] ?? 0) * 10) / 10;
}

interface CountryTally {
  batches: number;
  deltas: number[];
  fired: Map<string, string[]>;
  recent: Map<string, number>;
}

/**
 * How often rules would have fired over the stored history: every batch against the one before
 * it, through the same `firings` as the live evaluation (jobs/alert-evaluator.ts), breaking
 * events between the two batches as the evaluator reads them.
 */
export class RuleBacktest {
  readonly #archive: RuleNumbersArchive;

  constructor(private readonly db: Database) {
    this.#archive = new RuleNumbersArchive(db);
  }

  /** Reads every batch's numbers in the background (start-up), so the first backtest is quick. */
  warm(): Promise<void> {
    return this.#archive.warm();
  }

  stop(): void {
    this.#archive.stop();
  }

  /**
   * The team index of `countries` over every batch, with today's weights (issue 31): a backtest
   * asks what the rule would have done with the weights the team uses now.
   */
  async #teamIndexes(batchIds: number[], countries: readonly string[]) {
    const weights = (await selectWeightVersions(this.db, VERSIONS_HELD)).at(-1);
    if (!weights) {
      throw new ApiProblem(
        409,
        'The team index rule needs team index weights: an admin sets them with PUT /api/index-weights',
      );
    }
    return teamIndexOverHistory(this.db, batchIds, weights.weights, countries);
  }

  async run(countries: readonly string[], rules: readonly AlertRule[]): Promise<BacktestResponse> {
    const history = await this.#archive.all();
    const first = history[0]?.batch ?? null;
    const last = history.at(-1)?.batch ?? null;
    const recentFrom = last ? last.asOf.getTime() - BACKTEST_RECENT_DAYS * DAY_MS : Infinity;
    const wantsBreaking = rules.some((rule) => rule.kind === 'breaking_event');
    const tally: Tally = {
      countries,
      rules,
      recentFrom,
      breaking:
        wantsBreaking && first
          ? await selectBreakingEventsSince(
              this.db,
              [...countries],
              new Date(0),
              MAX_BREAKING_EVENTS,
            )
          : [],
      team: rules.some((rule) => rule.kind === 'team_index_threshold')
        ? await this.#teamIndexes(
            history.map((h) => h.batch.id),
            countries,
          )
        : null,
      methods: await heldMethodChanges(this.db),
      byCountry: new Map(
        countries.map((iso) => [
          iso,
          { batches: 0, deltas: [], fired: new Map(), recent: new Map() },
        ]),
      ),
      recentAlerts: [],
      recentCount: 0,
      heldAt: new Map(),
    };
    let eventAt = 0;
    const before = new Before();
    // Every batch × countries × rules (100 × 20 over 180 batches: ~360,000 rule checks): the
    // loop yields every slice, so cached answers go out while it runs (issue 29).
    const slice = new TimeSlice();
    for (const { batch, numbers } of history) {
      await slice.pause();
      eventAt = tallyBatch(tally, { batch, numbers }, before, eventAt);
      before.advance(countries, batch, numbers, tally.methods.has(batch.id));
    }
    const keys = rules.map(ruleKey);
    return {
      ok: true,
      from: first?.asOf.toISOString() ?? null,
      to: last?.asOf.toISOString() ?? null,
      batches: history.length,
      rules: keys,
      countries: countries.map((iso) => countryAnswer(iso, keys, tally.byCountry.get(iso))),
      last_90_days: {
        since: last ? new Date(recentFrom).toISOString() : null,
        count: tally.recentCount,
        alerts: tally.recentAlerts.slice(-BACKTEST_ALERTS_LISTED).reverse(),
      },
      method_changes: [...tally.heldAt.values()],
    };
  }
}

/** What a backtest reads and adds up over the batches. */
interface Tally {
  countries: readonly string[];
  rules: readonly AlertRule[];
  recentFrom: number;
  breaking: readonly BreakingEvent[];
  team: Map<number, TeamIndexes> | null;
  /** The method changes not marked comparable, by the batch that made each. */
  methods: Map<number, MethodChangeRow>;
  byCountry: Map<string, CountryTally>;
  recentAlerts: BacktestResponse['last_90_days']['alerts'];
  recentCount: number;
  /** The changes the history crossed, with the firings each held. */
  heldAt: Map<number, BacktestMethodChange>;
}

/** The held method changes (issue 31) by batch id: the live evaluator holds rules across them. */
async function heldMethodChanges(db: Database): Promise<Map<number, MethodChangeRow>> {
  const rows = await selectMethodChanges(db);
  return new Map(rows.filter((row) => !row.comparable).map((row) => [row.batchId, row]));
}

/**
 * One batch against the one before, as the live evaluator has it: across a method change not
 * marked comparable the rules comparing two batches are held (counted, never fired) and its
 * jump is left out of the suggested threshold; breaking events fire as usual. Returns where the
 * next batch's breaking events start.
 */
function tallyBatch(
  tally: Tally,
  now: { batch: BatchRef; numbers: BatchNumbers },
  then: Before,
  eventAt: number,
): number {
  const { batch, numbers } = now;
  const { team } = tally;
  const window = breakingWindow(tally.breaking, eventAt, then.previous, batch);
  const inputOf = (iso: string): RuleInput | null => {
    const after = numbers.get(iso);
    if (!after) return null;
    const was = then.of(iso);
    return {
      before: was && team ? withTeam(was.numbers, team, was.batch, iso) : (was?.numbers ?? null),
      after: team ? withTeam(after, team, batch, iso) : after,
      breaking: window.events.get(iso) ?? [],
      previousAsOf: then.previous?.asOf.toISOString(),
    };
  };
  const method = then.previous ? tally.methods.get(batch.id) : undefined;
  countBatch(tally.byCountry, numbers, (iso) => (method ? undefined : then.of(iso)?.numbers));
  const recent = batch.asOf.getTime() > tally.recentFrom;
  const asOf = batch.asOf.toISOString();
  for (const firing of firings(tally.countries, tally.rules, inputOf)) {
    const own = tally.byCountry.get(firing.iso);
    if (!own) continue;
    if (method && heldAcrossMethodChange(firing)) {
      const held = tally.heldAt.get(batch.id) ?? heldView(method);
      held.held_firings += 1;
      tally.heldAt.set(batch.id, held);
      continue;
    }
    const key = ruleKey(firing.rule);
    const list = own.fired.get(key);
    if (list) list.push(asOf);
    else own.fired.set(key, [asOf]);
    if (!recent) continue;
    own.recent.set(key, (own.recent.get(key) ?? 0) + 1);
    tally.recentCount += 1;
    tally.recentAlerts.push({ as_of: asOf, iso: firing.iso, rule: key, message: firing.message });
  }
  if (method && !tally.heldAt.has(batch.id)) tally.heldAt.set(batch.id, heldView(method));
  return window.next;
}

function heldView(row: MethodChangeRow): BacktestMethodChange {
  return {
    as_of: row.asOf.toISOString(),
    from: row.from,
    to: row.to,
    comparable: false,
    held_firings: 0,
  };
}
