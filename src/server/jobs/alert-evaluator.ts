import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { ruleKey, type AlertNumbers } from '../../shared/alerts-api.js';
import { digestMail, webhookBody } from '../services/alerts/alert-messages.js';
import { evaluateRule } from '../services/alerts/alert-rules.js';
import { alertView } from '../services/alerts/alert-views.js';
import {
  insertAlerts,
  selectBatchRefs,
  selectBreakingEvents,
  selectPreviousBatch,
  selectUnevaluatedBatches,
  writeEvaluation,
  type AlertRow,
  type BatchRef,
  type NewAlert,
  type NewDelivery,
} from '../store/alerts.js';
import { selectCountryRows, type CountryRow } from '../store/batches.js';
import type { Database } from '../store/connection.js';
import { selectAllWatchlists, type WatchlistRow } from '../store/watchlists.js';

export interface EvaluatorDeps {
  db: Database;
  now: () => number;
  logger: FastifyBaseLogger;
  /** ALERT_LINK_BASE_URL: absolute links in webhooks and e-mail. */
  linkBase: string | null;
  /** E-mail digests are queued only when SMTP is configured. */
  emailEnabled: boolean;
  /** Called after alerts were written with deliveries to send. */
  onQueued?: () => void;
}

// Alerts of a batch older than this (a backlog after downtime, the demo's seeded history) go to
// the inbox only: a burst of stale webhooks and e-mails helps no one.
const DELIVER_WITHIN_MS = 48 * 3_600_000;
const BATCHES_PER_PASS = 50;

function numbers(row: CountryRow): AlertNumbers {
  return { as_of: row.asOf.toISOString(), risk: row.risk, tier: row.tier, active: row.active };
}

/**
 * Evaluates every watchlist's rules once per new batch. Which batches are new is in the store
 * (`alert_evaluations`), not in memory, so a restart or a second process evaluates nothing twice;
 * the alerts' unique key is the last word on duplicates. Passes run one at a time.
 */
export class AlertEvaluator {
  #running: Promise<number> = Promise.resolve(0);

  constructor(private readonly deps: EvaluatorDeps) {}

  /** Evaluates every batch not evaluated yet; resolves to the number of new alerts. */
  evaluatePending(): Promise<number> {
    const next = this.#running.then(
      () => this.#pass(),
      () => this.#pass(),
    );
    this.#running = next.catch((error: unknown) => {
      this.deps.logger.error({ err: error }, 'alert evaluation failed');
      return 0;
    });
    return next;
  }

  async idle(): Promise<void> {
    await this.#running;
  }

  async #pass(): Promise<number> {
    let total = 0;
    for (;;) {
      const pending = await selectUnevaluatedBatches(this.deps.db, BATCHES_PER_PASS);
      if (pending.length === 0) return total;
      const lists = await selectAllWatchlists(this.deps.db);
      for (const batch of pending) total += await this.#evaluate(batch, lists);
    }
  }

  /**
   * Alerts of one list over the whole recorded history (the demo's sample list after the seed):
   * inbox only, no deliveries; the unique key keeps a second run from adding anything.
   */
  async backfill(listId: number): Promise<number> {
    const list = (await selectAllWatchlists(this.deps.db)).find((l) => l.id === listId);
    if (!list) return 0;
    let added = 0;
    let previous: BatchRef | null = null;
    for (const batch of await selectBatchRefs(this.deps.db)) {
      const candidates = await this.#candidates(batch, previous, [list]);
      added += await insertAlerts(this.deps.db, candidates);
      previous = batch;
    }
    return added;
  }

  async #candidates(
    batch: BatchRef,
    previous: BatchRef | null,
    lists: WatchlistRow[],
  ): Promise<NewAlert[]> {
    const { db } = this.deps;
    const candidates: NewAlert[] = [];
    if (lists.length === 0) return candidates;
    const after = new Map((await selectCountryRows(db, batch.id)).map((r) => [r.iso, r]));
    const before = previous
      ? new Map((await selectCountryRows(db, previous.id)).map((r) => [r.iso, r]))
      : new Map<string, CountryRow>();
    const watched = [...new Set(lists.flatMap((l) => l.countries))];
    const needsEvents = lists.some((l) => l.rules.some((r) => r.kind === 'breaking_event'));
    const breaking = needsEvents
      ? await selectBreakingEvents(db, watched, previous?.asOf ?? null, batch.asOf)
      : [];
    for (const list of lists) {
      for (const iso of list.countries) {
        const row = after.get(iso);
        if (!row) continue;
        const prior = before.get(iso);
        const input = {
          before: prior ? numbers(prior) : null,
          after: numbers(row),
          breaking: breaking.filter((e) => e.iso === iso),
        };
        for (const rule of list.rules) {
          const message = evaluateRule(rule, input);
          if (message === null) continue;
          candidates.push({
            watchlistId: list.id,
            ruleKey: ruleKey(rule),
            kind: rule.kind,
            iso,
            country: row.name ?? iso,
            batchAsOf: batch.asOf,
            message,
            before: input.before,
            after: input.after,
            createdAt: new Date(this.deps.now()),
          });
        }
      }
    }
    return candidates;
  }

  async #evaluate(batch: BatchRef, lists: WatchlistRow[]): Promise<number> {
    const { db } = this.deps;
    const previous = await selectPreviousBatch(db, batch.asOf);
    const candidates = await this.#candidates(batch, previous, lists);
    const deliver = this.deps.now() - batch.asOf.getTime() <= DELIVER_WITHIN_MS;
    const inserted = await writeEvaluation(db, batch.id, candidates, (rows) =>
      deliver ? this.#deliveries(rows, lists, previous) : [],
    );
    if (inserted === null) return 0;
    if (inserted.length > 0) {
      this.deps.logger.info(
        { as_of: batch.asOf.toISOString(), alerts: inserted.length },
        'alerts raised for a new batch',
      );
      if (deliver) this.deps.onQueued?.();
    }
    return inserted.length;
  }

  #deliveries(rows: AlertRow[], lists: WatchlistRow[], previous: BatchRef | null): NewDelivery[] {
    const now = new Date(this.deps.now());
    const out: NewDelivery[] = [];
    for (const list of lists) {
      const own = rows
        .filter((r) => r.watchlistId === list.id)
        .map((r) => alertView(r, list.name, this.deps.linkBase));
      const first = own[0];
      if (!first) continue;
      const common = {
        watchlistId: list.id,
        state: 'pending' as const,
        nextAttemptAt: now,
        createdAt: now,
      };
      if (list.webhookUrl && list.webhookSecret) {
        for (const alert of own) {
          out.push({
            ...common,
            messageId: `msg_${randomUUID().replace(/-/g, '')}`,
            channel: 'webhook',
            body: webhookBody(alert, list.webhookFormat, previous?.asOf.toISOString() ?? null),
          });
        }
      }
      if (list.email && this.deps.emailEnabled) {
        out.push({
          ...common,
          messageId: `mail_${randomUUID().replace(/-/g, '')}`,
          channel: 'email',
          body: JSON.stringify({
            to: list.email,
            ...digestMail(list.name, first.batch_as_of, own),
          }),
        });
      }
    }
    return out;
  }
}
