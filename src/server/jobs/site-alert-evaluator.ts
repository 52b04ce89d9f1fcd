import { alertNumbers, alertView } from '../services/alerts/alert-views.js';
import { listDeliveries } from '../services/alerts/list-deliveries.js';
import {
  listMoves,
  METHOD_NOTICE_COUNTRY,
  METHOD_NOTICE_ISO,
  METHOD_NOTICE_RULE,
  methodNoticeMessage,
  type MethodChange,
} from '../services/alerts/method-notice.js';
import { displayName } from '../services/reference/display-names.js';
import {
  alertSites,
  collectHits,
  siteAlertMessage,
  type CountryHits,
  type CountryMove,
} from '../services/sites/site-rule.js';
import { reasonOf, selectPreviousBatch, type BatchRef, type NewAlert } from '../store/alerts.js';
import { selectCountryRows } from '../store/batches.js';
import { selectChainIds } from '../store/batch-chain.js';
import { selectMethodChangeBetween } from '../store/method-changes.js';
import {
  ensureSiteAlertList,
  selectRuleSites,
  selectSiteRuleBatches,
  writeSiteAlerts,
} from '../store/sites-alerts.js';
import { BatchEvaluator, type EvaluatorDeps } from './batch-evaluator.js';

/** Site alerts are about now: batches older than this (a backlog, the demo's seeded history) are not evaluated. */
const RECENT_MS = 48 * 3_600_000;
const BATCHES_PER_PASS = 50;
/** Sites read at once (the most there may be): memory per chunk is bounded, whatever is stored. */
export const SITES_PER_CHUNK = 20_000;
/** The site rule's alerts keep this key: one per country and batch in the "Our sites" list. */
export const SITE_RULE_KEY = 'site';

/**
 * The site rule over every new batch (the pipeline's "evaluated around our sites" step): the
 * countries that moved, against every site's stored nearby list, chunk by chunk; one alert per
 * country naming the sites and people, in the "Our sites" list, with its webhook and e-mail
 * deliveries written in the same transaction. Once per batch and alert (store/sites-alerts.ts
 * writeSiteAlerts); passes run one at a time.
 */
export class SiteAlertEvaluator extends BatchEvaluator {
  constructor(deps: EvaluatorDeps) {
    super(deps, 'site alert evaluation failed');
  }

  protected async pass(): Promise<number> {
    const since = new Date(this.deps.now() - RECENT_MS);
    const pending = await selectSiteRuleBatches(this.deps.db, since, BATCHES_PER_PASS);
    let added = 0;
    for (const batch of pending) {
      // A batch that fails stays pending for the next pass, until it is 48 h old; it never
      // holds up the batches after it.
      try {
        added += await this.evaluateBatch(batch);
      } catch (error) {
        this.deps.logger.error(
          { as_of: batch.asOf.toISOString(), reason: reasonOf(error) },
          'site alert evaluation of a batch failed: the next pass tries again',
        );
      }
    }
    return added;
  }

  /** The countries whose numbers moved at all since the batch before (nothing else can fire). */
  async #moves(
    batch: BatchRef,
  ): Promise<{ moves: Map<string, CountryMove>; previous: BatchRef | null }> {
    const { db } = this.deps;
    const previous = await selectPreviousBatch(db, batch.asOf);
    const moves = new Map<string, CountryMove>();
    if (!previous) return { moves, previous };
    const before = new Map((await selectCountryRows(db, previous.id)).map((r) => [r.iso, r]));
    for (const row of await selectCountryRows(db, batch.id)) {
      const old = before.get(row.iso);
      if (!old) continue;
      if (old.tier === row.tier && old.active === row.active) continue;
      moves.set(row.iso, {
        iso: row.iso,
        name: displayName(row.iso, row.name),
        before: alertNumbers(old),
        after: alertNumbers(row),
      });
    }
    return { moves, previous };
  }

  /** One batch: its alerts and deliveries written once (nothing when it was evaluated before). */
  async evaluateBatch(batch: BatchRef): Promise<number> {
    const { db } = this.deps;
    const { moves, previous } = await this.#moves(batch);
    const hits = new Map<string, CountryHits>();
    if (moves.size > 0) {
      for (let after = 0; ;) {
        const chunk = await selectRuleSites(db, after, SITES_PER_CHUNK);
        collectHits(hits, chunk, moves, batch.asOf);
        const last = chunk.at(-1);
        if (!last || chunk.length < SITES_PER_CHUNK) break;
        after = last.id;
      }
    }
    if (hits.size === 0) {
      await writeSiteAlerts(db, batch.id, [], () => []);
      return 0;
    }
    const list = await ensureSiteAlertList(db);
    const chainId = (await selectChainIds(db, [batch.id])).get(batch.id) ?? null;
    const createdAt = new Date(this.deps.now());
    // Across the provider's method change (issue 31) no move is a move of the world: the list
    // gets one notice saying so instead of an alert per country.
    const change = previous ? await selectMethodChangeBetween(db, batch.id, previous.id) : null;
    const held = change && !change.comparable ? change : null;
    const rows: NewAlert[] = held
      ? [methodNotice(list.id, batch, hits, held, createdAt)]
      : [...hits.values()].map((country) => ({
          watchlistId: list.id,
          ruleKey: SITE_RULE_KEY,
          // The inbox knows these two kinds: a tier rise is the graver news.
          kind: country.tierRose ? 'tier_change' : 'active_change',
          iso: country.move.iso,
          country: country.move.name,
          batchAsOf: batch.asOf,
          message: siteAlertMessage(country),
          before: country.move.before,
          after: country.move.after,
          createdAt,
        }));
    const written = await writeSiteAlerts(db, batch.id, rows, (inserted) =>
      listDeliveries(
        list,
        inserted.map((row) => alertView(row, list.name, this.deps.linkBase)),
        { previousAsOf: previous?.asOf.toISOString() ?? null, chainId },
        createdAt,
        this.deps.emailEnabled,
        (alert) => {
          const country = hits.get(alert.iso);
          return country ? alertSites(country) : null;
        },
      ),
    );
    if (!written || written.length === 0) return 0;
    this.deps.logger.info(
      { as_of: batch.asOf.toISOString(), alerts: written.length },
      'site alerts raised for a new batch',
    );
    this.deps.onQueued?.();
    return written.length;
  }
}

/** The "Our sites" list's one notice for a batch that changes the provider's method. */
function methodNotice(
  listId: number,
  batch: BatchRef,
  hits: ReadonlyMap<string, CountryHits>,
  change: MethodChange,
  createdAt: Date,
): NewAlert {
  const countries = [...hits.keys()];
  const before = new Map(countries.map((iso) => [iso, hits.get(iso)!.move.before]));
  const after = new Map(countries.map((iso) => [iso, { numbers: hits.get(iso)!.move.after }]));
  const moves = listMoves(countries, before, after);
  return {
    watchlistId: listId,
    ruleKey: METHOD_NOTICE_RULE,
    kind: 'method_change',
    iso: METHOD_NOTICE_ISO,
    country: METHOD_NOTICE_COUNTRY,
    batchAsOf: batch.asOf,
    // Site alerts are about now: marking the change comparable later does not raise them.
    message: methodNoticeMessage(change, moves, countries.length, false),
    before: null,
    after: { as_of: batch.asOf.toISOString(), risk: moves.meanRisk, tier: null, active: null },
    createdAt,
  };
}
