import type { HistoryStore } from '../store/history-store.js';
import type { AlertEvaluator } from './alert-evaluator.js';
import type { BatchRecorder } from './batch-recorder.js';
import type { Found } from './batch-sources.js';
import type { OutboxWorker } from './outbox-worker.js';
import type { SiteAlertEvaluator } from './site-alert-evaluator.js';

/** Stops a job started for one term of leadership (the leadership's own shape: jobs/ does not
 * import replicas/). */
type StopJob = () => Promise<void>;

/*
 * The batch pipeline: what happens to a new upstream batch, in the order it happens.
 *
 *   seen ──▶ recorded ──▶ evaluated (watchlists, then around our sites) ──▶ queued ──▶ sent
 *
 * The composition root (compose/app.ts) connects each step to the news that starts it; the
 * jobs that do the work (the batch watch, the evaluator, the outbox worker) run on the leader
 * only (one process, or the holder of the leader lease among replicas). Each step below is a
 * method that can be driven alone (test/server/batch-pipeline.test.ts), and says its guarantee.
 */

/** What the pipeline needs of the batch watch (batch-recorder.ts). */
export type BatchWatch = Pick<BatchRecorder, 'start' | 'stop' | 'checkNow' | 'idle'>;

export interface PipelineDeps {
  store: HistoryStore;
  evaluator: AlertEvaluator;
  /** The site rule (issue 20); absent where the store has no sites part. */
  siteAlerts?: SiteAlertEvaluator;
  /** True while this process leads (the batch watch, evaluation and delivery run here). */
  isLeader: () => boolean;
  /** Replicas: a delivery was queued here while another replica leads (tell it). */
  queuedElsewhere?: () => void;
}

export class BatchPipeline {
  /** The batch watch of the current term of leadership (null: not leading). */
  #watch: BatchWatch | null = null;
  /** The outbox worker of the current term of leadership (null: not leading). */
  #outbox: OutboxWorker | null = null;
  #listening = false;
  #leftoversAtListen = false;

  constructor(private readonly deps: PipelineDeps) {}

  /**
   * 1. Seen: a page's answer or the watch's own probe showed a newer `as_of` (cache/batch.ts), or
   * another replica said so. The watch checks at once instead of at its next wake; nothing is
   * recorded here, so seeing a batch twice costs at most one more check.
   */
  seen(): void {
    this.#watch?.checkNow();
  }

  /**
   * 2. Recorded: the batch's rows (and the feed's global-only points) written to the store.
   * Once per batch: `batches.as_of` is unique and recordBatch inserts in one transaction ON
   * CONFLICT (store/batches.ts), so a restart or a second process stores nothing twice.
   * True when this call stored the batch (false: it was there already).
   */
  async record(found: Found, feedPoints: readonly Found[] = []): Promise<boolean> {
    const { store } = this.deps;
    for (const point of feedPoints) {
      await store.recordBatch({ ...point, asOf: new Date(point.asOf), demo: false });
    }
    const { recorded } = await store.recordBatch({
      ...found,
      asOf: new Date(found.asOf),
      demo: false,
    });
    return recorded;
  }

  /**
   * 3. Evaluated: every watchlist's rules against each batch not evaluated yet. Leader only.
   * Once per batch and list: the `alert_evaluations` cursor moves by compare-and-set in the
   * chunk's transaction (store/alerts.ts writeEvaluationChunk), so a second pass or process
   * finds it moved and writes nothing. Once per alert: unique key `alerts_once_key` (list,
   * rule, country, batch). Passes run one at a time. Resolves to the number of new alerts.
   */
  async evaluate(): Promise<number> {
    if (!this.deps.isLeader()) return 0;
    // The site rule runs even when the watchlists' pass failed (that failure is logged there).
    const [lists, around] = await Promise.allSettled([
      this.deps.evaluator.evaluatePending(),
      this.evaluateAroundSites(),
    ]);
    if (lists.status === 'rejected') throw lists.reason;
    return lists.value + (around.status === 'fulfilled' ? around.value : 0);
  }

  /**
   * 3b. Evaluated around our sites: the site rule against each recent batch it has not seen
   * (jobs/site-alert-evaluator.ts). Leader only. Once per batch: its `site_alert_evaluations`
   * row is inserted in the transaction that writes the batch's site alerts, by one writer only
   * (store/sites-alerts.ts writeSiteAlerts); once per alert: `alerts_once_key`.
   */
  evaluateAroundSites(): Promise<number> {
    if (!this.deps.isLeader() || !this.deps.siteAlerts) return Promise.resolve(0);
    return this.deps.siteAlerts.evaluatePending();
  }

  /**
   * 4. Queued: an alert's deliveries (webhook per alert, e-mail digest per list) are written in
   * the same transaction as the alert, so no alert is kept without them and none is sent for an
   * alert that was not kept; the message id (`deliveries_message_key`) stays the same on every
   * retry. This step only tells the sender: this process's outbox when it leads, else the leader.
   */
  queued(): void {
    if (this.#outbox) this.#outbox.kick();
    else this.deps.queuedElsewhere?.();
  }

  /**
   * 5. Sent: the outbox worker claims each due delivery for a lease (store/outbox.ts claimNext),
   * fenced by the leader lease: the claim's UPDATE also requires this term's fence, so a leader
   * that stalled past its lease claims nothing. One delivery per endpoint in flight; failures
   * retried with back-off for 24 h under the same message id. A new term first takes over the
   * claims of earlier ones (store/outbox.ts takeOverClaims): a leader that died mid-send holds
   * up nothing, and what it was sending goes again under its message id.
   */
  send(): void {
    this.#outbox?.kick();
  }

  /** Leader only: runs `watch` for one term of leadership; returns what stops it. */
  watchDuring(watch: BatchWatch): StopJob {
    this.#watch = watch;
    watch.start();
    return async () => {
      await watch.stop();
      if (this.#watch === watch) this.#watch = null;
    };
  }

  /**
   * Leader only: runs `outbox` for one term of leadership; returns what stops it. Start-up never
   * waits on evaluation: batches left pending (recorded while nobody led, or before a restart)
   * are evaluated in the background once the port is open, or at once when leadership comes
   * later. An app that never listens (tests) evaluates them with its next batch.
   */
  sendDuring(outbox: OutboxWorker): StopJob {
    this.#outbox = outbox;
    this.#evaluateLeftovers();
    outbox.start();
    return async () => {
      await outbox.stop();
      if (this.#outbox === outbox) this.#outbox = null;
    };
  }

  /** The port is open: leftovers held back until now are evaluated. */
  listening(): void {
    this.#listening = true;
    if (this.#leftoversAtListen && this.deps.isLeader()) this.#evaluateInBackground();
  }

  /** Settles when the watch has nothing in progress. */
  async watchIdle(): Promise<void> {
    await this.#watch?.idle();
  }

  /** Settles when evaluation and the outbox have nothing in progress. */
  async deliveryIdle(): Promise<void> {
    await this.deps.evaluator.idle();
    await this.deps.siteAlerts?.idle();
    await this.#outbox?.idle();
  }

  #evaluateLeftovers(): void {
    if (this.#listening) this.#evaluateInBackground();
    else this.#leftoversAtListen = true;
  }

  // A failed pass is logged by the evaluator; the next batch (or restart) tries again.
  #evaluateInBackground(): void {
    this.evaluate().catch(() => undefined);
  }
}
