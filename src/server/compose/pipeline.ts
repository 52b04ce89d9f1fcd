import type { FastifyInstance } from 'fastify';
import type { BatchTracker } from '../cache/batch.js';
import type { ResourceCache } from '../cache/resource-cache.js';
import { BatchPipeline } from '../jobs/pipeline.js';
import type { Leadership } from '../replicas/leadership.js';
import type { HistoryStore } from '../store/history-store.js';
import type { Alerts } from './alerts.js';
import type { History } from './history.js';
import type { Replicas } from './replicas.js';
import type { Sites } from './sites.js';

/**
 * "Deliveries were queued", said by the alert and site parts, which are built before the
 * pipeline that listens: connected once the pipeline exists.
 */
export class QueuedNotice {
  #listener: () => void = () => {};
  readonly fire = (): void => this.#listener();
  connect(listener: () => void): void {
    this.#listener = listener;
  }
}

/**
 * The batch pipeline (jobs/pipeline.ts: seen → recorded → evaluated → queued → sent), its
 * leader-only jobs (one of each per term of leadership) and the news that starts each step.
 * Resolves to the pipeline and what stops its listeners.
 */
export async function composePipeline(
  app: FastifyInstance,
  parts: {
    store: HistoryStore;
    history: History;
    alerts: Alerts;
    sites: Sites;
    cache: ResourceCache;
    batch: BatchTracker;
    leadership: Leadership;
    replicas: Replicas | null;
    queued: QueuedNotice;
  },
): Promise<{ pipeline: BatchPipeline; stopListening: () => void }> {
  const { store, history, alerts, cache, leadership, replicas } = parts;
  const isLeader = (): boolean => leadership.isLeader();
  const pipeline = new BatchPipeline({
    store,
    evaluator: alerts.evaluator,
    siteAlerts: parts.sites.siteAlerts,
    isLeader,
    queuedElsewhere: replicas?.announceQueued,
  });
  parts.queued.connect(() => pipeline.queued());
  leadership.whileLeading(() => {
    const stop = pipeline.watchDuring(history.newWatch(pipeline, isLeader));
    app.log.info({ store: store.kind }, 'watching for batches');
    return stop;
  });
  leadership.whileLeading((fence) => pipeline.sendDuring(alerts.newOutbox(fence, isLeader)));

  // Listeners, each list in the order its listeners fire. Seen: a page's request that shows a
  // new batch starts the recording now, not at the next wake.
  cache.onNewBatch(() => pipeline.seen());
  if (replicas) cache.onNewBatch((asOfText) => replicas.announceBatchSeen(asOfText));
  cache.onFetched((entry) => history.archiver.receive(entry));
  // Recorded → evaluated. A failed pass is logged by the evaluator; the next batch tries again.
  const stopListening = store.onBatchRecorded(() => {
    pipeline.evaluate().catch(() => undefined);
  });
  if (replicas) store.onBatchRecorded(() => replicas.announceStoreChanged());
  // A method change decided comparable changes the history answers of every replica (issue 31).
  if (replicas) store.onMethodDecided(() => replicas.announceStoreChanged());
  app.addHook('onListen', async () => pipeline.listening());
  // Backtests read two years of numbers once (seconds); after listening, in the background.
  app.addHook('onListen', async () => alerts.warmBacktests());
  if (replicas) {
    await replicas.start({ batch: parts.batch, pipeline, archiver: history.archiver });
  }
  return { pipeline, stopListening };
}
