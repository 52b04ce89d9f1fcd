import { displayName } from '../services/reference/display-names.js';
import { ruleKey, type AlertNumbers } from '../../shared/alerts-api.js';
import { firings } from '../services/alerts/alert-rules.js';
import { alertNumbers, alertView } from '../services/alerts/alert-views.js';
import { listDeliveries } from '../services/alerts/list-deliveries.js';
import {
  heldAcrossMethodChange,
  listMoves,
  METHOD_NOTICE_COUNTRY,
  METHOD_NOTICE_ISO,
  METHOD_NOTICE_RULE,
  methodNoticeMessage,
  type MethodChange,
} from '../services/alerts/method-notice.js';
import {
  beginEvaluation,
  insertAlerts,
  noteEvaluationFailure,
  reasonOf,
  selectBatchRefById,
  selectBatchRefs,
  selectBreakingEvents,
  selectPreviousBatch,
  selectUnevaluatedBatches,
  writeAlertsAndDeliveries,
  writeEvaluationChunk,
  type AlertRow,
  type BatchRef,
  type BreakingEvent,
  type EvaluationChunk,
  type ListEvaluation,
  type NewAlert,
  type NewDelivery,
} from '../store/alerts.js';
import { selectCountryRows } from '../store/batches.js';
import { selectChainIds } from '../store/batch-chain.js';
import { selectMethodChangeBetween } from '../store/method-changes.js';
import {
  selectWatchlistById,
  selectWatchlistPage,
  type WatchlistRow,
} from '../store/watchlists.js';
import { numbersBefore } from './alert-before.js';
import { BatchEvaluator, type EvaluatorDeps } from './batch-evaluator.js';
import { TimeSlice } from '../work/time-slice.js';
import { selectWeightVersions } from '../store/team-index.js';
import { VERSIONS_HELD, weightsInForceAt } from '../services/team-index/team-weights.js';
import { overridesInForceAt, withOverride } from '../services/team-index/overrides.js';

// Alerts of a batch older than this (a backlog after downtime, the demo's seeded history) go to
// the inbox only: a burst of stale webhooks and e-mails helps no one.
const DELIVER_WITHIN_MS = 48 * 3_600_000;
const BATCHES_PER_PASS = 50;
// Lists read at once (each holds at most 100 countries and 20 rules: a few kB).
const LISTS_PER_PAGE = 100;
// Alerts held in memory and written in one transaction: a chunk closes once it holds this many
// (a list is never split, and raises at most 2,000), so memory is bounded whatever the lists.
const ALERTS_PER_CHUNK = 5_000;
// A batch whose evaluation fails this often outside any one list is given up, never retried first.
const ATTEMPTS_PER_BATCH = 3;

/** One batch's country numbers (and the batch before's), read once for all its chunks. */
interface BatchContext {
  batch: BatchRef;
  previous: BatchRef | null;
  /** The batch's citable id (the chain's, given in its recording transaction); null if none. */
  chainId: string | null;
  after: Map<string, { name: string; numbers: AlertNumbers }>;
  before: Map<string, AlertNumbers>;
  /** The provider's method change this batch makes (issue 31), or null. */
  method: MethodChange | null;
}

type Breaking = Map<string, BreakingEvent[]>;

/** A chunk written with no list left on the page: nothing is delivered. */
const NO_CONTEXT: Pick<BatchContext, 'previous' | 'chainId'> = { previous: null, chainId: null };

/**
 * Evaluates every watchlist's rules once per new batch. Which batches (and which of their lists)
 * are done is in the store (`alert_evaluations`), not in memory, so a restart or a second process
 * evaluates nothing twice; the alerts' unique key is the last word on duplicates. Lists are read
 * a page at a time and written in chunks, so neither memory nor a statement grows with the
 * number of lists, and a list that fails is noted and skipped. Passes run one at a time.
 */
export class AlertEvaluator extends BatchEvaluator {
  constructor(deps: EvaluatorDeps) {
    super(deps, 'alert evaluation failed');
  }

  protected async pass(): Promise<number> {
    let total = 0;
    // A batch that failed is not taken again in the same pass (the next pass tries it again).
    const tried = new Set<number>();
    for (;;) {
      const pending = (await selectUnevaluatedBatches(this.deps.db, BATCHES_PER_PASS)).filter(
        (b) => !tried.has(b.id),
      );
      if (pending.length === 0) return total;
      for (const batch of pending) {
        tried.add(batch.id);
        try {
          total += await this.#evaluate(batch);
        } catch (error) {
          await this.#batchFailed(batch, error);
        }
      }
    }
  }

  async #batchFailed(batch: BatchRef, error: unknown): Promise<void> {
    const where = { as_of: batch.asOf.toISOString(), reason: reasonOf(error) };
    const givenUp = await noteEvaluationFailure(this.deps.db, batch.id, ATTEMPTS_PER_BATCH).catch(
      () => false,
    );
    this.deps.logger.error(
      where,
      givenUp
        ? `alert evaluation of a batch failed ${ATTEMPTS_PER_BATCH} times: given up`
        : 'alert evaluation of a batch failed: the next pass tries again',
    );
  }

  /**
   * Alerts of one list over the whole recorded history (the demo's sample list after the seed):
   * inbox only, no deliveries; the unique key keeps a second run from adding anything.
   */
  async backfill(listId: number): Promise<number> {
    const list = await selectWatchlistById(this.deps.db, listId);
    if (!list) return 0;
    let added = 0;
    let previous: BatchRef | null = null;
    const slice = new TimeSlice();
    for (const batch of await selectBatchRefs(this.deps.db)) {
      await slice.pause();
      const context = await this.#context(batch, previous);
      const breaking = await this.#breaking(context, [list]);
      added += await insertAlerts(this.deps.db, this.#candidates(context, breaking, list));
      previous = batch;
    }
    return added;
  }

  async #context(batch: BatchRef, previous: BatchRef | null): Promise<BatchContext> {
    const { db } = this.deps;
    // Both batches with the weights in force at the newer one: a weight change is not a move.
    const weights = weightsInForceAt(await selectWeightVersions(db, VERSIONS_HELD), batch.asOf);
    const team = weights?.weights ?? null;
    // Our overrides in force at each batch: one set or ended between them is a tier change.
    const overridesAfter = await overridesInForceAt(db, batch.asOf);
    const after = new Map(
      (await selectCountryRows(db, batch.id)).map((r) => [
        r.iso,
        {
          name: displayName(r.iso, r.name),
          numbers: withOverride(alertNumbers(r, team), overridesAfter.get(r.iso)),
        },
      ]),
    );
    const before = previous
      ? await numbersBefore(db, previous, [...after.keys()], team)
      : new Map<string, AlertNumbers>();
    const chainId = (await selectChainIds(db, [batch.id])).get(batch.id) ?? null;
    const method = previous ? await selectMethodChangeBetween(db, batch.id, previous.id) : null;
    return { batch, previous, chainId, after, before, method };
  }

  /** Breaking events of the countries of `lists` that have a breaking-event rule. */
  async #breaking(context: BatchContext, lists: WatchlistRow[]): Promise<Breaking> {
    const wanting = lists.filter((l) => l.rules.some((r) => r.kind === 'breaking_event'));
    const byIso: Breaking = new Map();
    if (wanting.length === 0) return byIso;
    const isos = [...new Set(wanting.flatMap((l) => l.countries))];
    const events = await selectBreakingEvents(
      this.deps.db,
      isos,
      context.previous?.asOf ?? null,
      context.batch.asOf,
    );
    for (const event of events) {
      const own = byIso.get(event.iso);
      if (own) own.push(event);
      else byIso.set(event.iso, [event]);
    }
    return byIso;
  }

  /**
   * The list's alerts for the batch. Across a method change (not marked comparable) the rules
   * comparing two batches are held: the list gets one notice instead (unique key: its rule key
   * `method_change`, iso XMC and the batch), and breaking events as usual.
   */
  #candidates(context: BatchContext, breaking: Breaking, list: WatchlistRow): NewAlert[] {
    const createdAt = new Date(this.deps.now());
    const inputOf = (iso: string) => {
      const row = context.after.get(iso);
      if (!row) return null;
      return {
        before: context.before.get(iso) ?? null,
        after: row.numbers,
        breaking: breaking.get(iso) ?? [],
        previousAsOf: context.previous?.asOf.toISOString(),
      };
    };
    const all = [...firings(list.countries, list.rules, inputOf)];
    const method = context.method?.comparable === false ? context.method : null;
    const kept = method ? all.filter((f) => !heldAcrossMethodChange(f)) : all;
    const alerts: NewAlert[] = kept.map(({ iso, rule, input, message }) => ({
      watchlistId: list.id,
      ruleKey: ruleKey(rule),
      kind: rule.kind,
      iso,
      country: context.after.get(iso)?.name ?? iso,
      batchAsOf: context.batch.asOf,
      message,
      before: input.before,
      after: input.after,
      createdAt,
    }));
    const held = all.length - kept.length;
    if (method && held > 0) alerts.push(this.#notice(context, list, method, held, createdAt));
    return alerts;
  }

  #notice(
    context: BatchContext,
    list: WatchlistRow,
    method: MethodChange,
    held: number,
    createdAt: Date,
  ): NewAlert {
    const moves = listMoves(list.countries, context.before, context.after);
    const asOf = context.batch.asOf.toISOString();
    return {
      watchlistId: list.id,
      ruleKey: METHOD_NOTICE_RULE,
      kind: 'method_change',
      iso: METHOD_NOTICE_ISO,
      country: METHOD_NOTICE_COUNTRY,
      batchAsOf: context.batch.asOf,
      message: methodNoticeMessage(method, moves, held),
      before: null,
      after: { as_of: asOf, risk: moves.meanRisk, tier: null, active: null },
      createdAt,
    };
  }

  /**
   * The rules a method change held, evaluated once an admin marked it comparable: every list,
   * a page at a time, its alerts and deliveries written together; the alerts' unique key keeps
   * a second run (or the breaking events already raised) from adding anything twice.
   */
  async releaseHeld(batchId: number): Promise<number> {
    const { db } = this.deps;
    const batch = await selectBatchRefById(db, batchId);
    if (!batch) return 0;
    const context = await this.#context(batch, await selectPreviousBatch(db, batch.asOf));
    const deliver = this.deps.now() - batch.asOf.getTime() <= DELIVER_WITHIN_MS;
    let cursor = 0;
    let added = 0;
    for (;;) {
      const page = await selectWatchlistPage(db, cursor, LISTS_PER_PAGE);
      if (page.length === 0) break;
      const breaking = await this.#breaking(context, page);
      const rows = page.flatMap((list) => this.#candidates(context, breaking, list));
      added += await writeAlertsAndDeliveries(db, rows, (inserted) =>
        deliver ? this.#deliveries(inserted, page, context) : [],
      );
      cursor = page.at(-1)?.id ?? cursor;
      if (page.length < LISTS_PER_PAGE) break;
    }
    if (added > 0 && deliver) this.deps.onQueued?.();
    return added;
  }

  /** Evaluates one batch from where its evaluation stands, chunk by chunk. */
  async #evaluate(batch: BatchRef): Promise<number> {
    const { db } = this.deps;
    let cursor = await beginEvaluation(db, batch.id);
    if (cursor === null) return 0;
    const deliver = this.deps.now() - batch.asOf.getTime() <= DELIVER_WITHIN_MS;
    // The countries are read once, and only when there is a list (not for each seeded batch).
    let context: BatchContext | null = null;
    let added = 0;
    const slice = new TimeSlice();
    for (;;) {
      const page = await selectWatchlistPage(db, cursor, LISTS_PER_PAGE);
      if (page.length === 0) {
        const written = await this.#write(batch, NO_CONTEXT, page, deliver, {
          batchId: batch.id,
          after: cursor,
          through: cursor,
          last: true,
          lists: [],
        });
        return added + (written ?? 0);
      }
      context ??= await this.#context(batch, await selectPreviousBatch(db, batch.asOf));
      const lastPage = page.length < LISTS_PER_PAGE;
      const breaking = await this.#breaking(context, page);
      let lists: ListEvaluation[] = [];
      let held = 0;
      for (const [index, list] of page.entries()) {
        // A page's rules run in slices: 100 lists × 42 countries × 20 rules held the thread for
        // tens of milliseconds at once (the loop-delay p99 of the largest evaluation, issue 29).
        await slice.pause();
        // One list's failure (a rule this code cannot read, ...) is its own, never the others'.
        try {
          const candidates = this.#candidates(context, breaking, list);
          lists.push({ watchlistId: list.id, candidates });
          held += candidates.length;
        } catch (error) {
          lists.push({ watchlistId: list.id, failure: reasonOf(error) });
        }
        const last = lastPage && index === page.length - 1;
        if (held < ALERTS_PER_CHUNK && index < page.length - 1) continue;
        const written = await this.#write(batch, context, page, deliver, {
          batchId: batch.id,
          after: cursor,
          through: list.id,
          last,
          lists,
        });
        // Another process moved the cursor first: this batch is in its hands.
        if (written === null) return added;
        added += written;
        cursor = list.id;
        lists = [];
        held = 0;
      }
      if (lastPage) return added;
    }
  }

  async #write(
    batch: BatchRef,
    context: Pick<BatchContext, 'previous' | 'chainId'>,
    page: WatchlistRow[],
    deliver: boolean,
    chunk: EvaluationChunk,
  ): Promise<number | null> {
    const written = await writeEvaluationChunk(this.deps.db, chunk, (rows) =>
      deliver ? this.#deliveries(rows, page, context) : [],
    );
    if (written === null) return null;
    const asOf = batch.asOf.toISOString();
    for (const failure of written.failures) {
      this.deps.logger.error(
        { as_of: asOf, watchlist_id: failure.watchlistId, reason: failure.reason },
        'alert evaluation of a watchlist failed: skipped, the other lists went on',
      );
    }
    if (written.inserted.length > 0) {
      this.deps.logger.info(
        { as_of: asOf, alerts: written.inserted.length },
        'alerts raised for a new batch',
      );
      if (deliver) this.deps.onQueued?.();
    }
    return written.inserted.length;
  }

  #deliveries(
    rows: AlertRow[],
    lists: WatchlistRow[],
    { previous, chainId }: Pick<BatchContext, 'previous' | 'chainId'>,
  ): NewDelivery[] {
    const now = new Date(this.deps.now());
    const byList = new Map<number, AlertRow[]>();
    for (const row of rows) {
      const own = byList.get(row.watchlistId);
      if (own) own.push(row);
      else byList.set(row.watchlistId, [row]);
    }
    return lists.flatMap((list) =>
      listDeliveries(
        list,
        (byList.get(list.id) ?? []).map((r) => alertView(r, list.name, this.deps.linkBase)),
        { previousAsOf: previous?.asOf.toISOString() ?? null, chainId },
        now,
        this.deps.emailEnabled,
      ),
    );
  }
}
