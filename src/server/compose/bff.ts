import type { FastifyInstance } from 'fastify';
import type { BatchPipeline } from '../jobs/pipeline.js';
import type { Leadership } from '../replicas/leadership.js';
import type { HistoryStore } from '../store/history-store.js';
import type { ResourceCache } from '../cache/resource-cache.js';
import type { Alerts } from './alerts.js';
import type { DataParts } from './data.js';
import type { History } from './history.js';
import type { Replicas } from './replicas.js';
import type { Sites } from './sites.js';
import type { Team } from './team.js';
import type { ReadinessHolds } from '../work/readiness.js';

/**
 * What the composition root hands back: the app, and the handles its caller (main.ts's process,
 * a test, the benchmark) uses to wait for background work or seed the demo. Nothing of this is
 * decorated onto the app.
 */
export interface Bff {
  app: FastifyInstance;
  /** The store the app uses (null: no history); closed with the app when the root opened it. */
  store: HistoryStore | null;
  /** Settles when no upstream request of this app is in flight. */
  upstreamIdle(): Promise<void>;
  /** Settles when the batch watch and the event archive have nothing in progress. */
  historyIdle(): Promise<void>;
  /** Settles when alert evaluation and the outbox have nothing in progress. */
  alertsIdle(): Promise<void>;
  /** History questions waiting for their turn, all clients together. */
  historyQuestionsWaiting(): number;
  /** Demo mode, after the history seed: the sample watchlist (once) and its inbox; alerts added. */
  demoWatchlist(): Promise<number>;
  /** Demo mode: the fictional company's sites (only when there are none); the count added. */
  demoSites(): Promise<number>;
  /**
   * Settles when the override expiry job and the compact scores' filler (issue 31) have nothing
   * in progress.
   */
  teamIdle(): Promise<void>;
  /** `/readyz` answers 503 with `reason` until `work` settles (the demo seed, issue 29). */
  holdReadiness(work: Promise<unknown>, reason: string): void;
}

/**
 * The order the parts stop in: the upstream client first (a slow upstream must not hold up a
 * shutdown), then leadership (the jobs stop, a replica hands its lease over at once), the
 * replicas, the pipeline's listeners and deliveries, the alerts, the archive, the cache and its
 * file. The store itself is closed by whoever opened it.
 */
export function closeInOrder(parts: {
  data: DataParts;
  leadership: Leadership;
  replicas: Replicas | null;
  batchSteps: { pipeline: BatchPipeline; stopListening: () => void } | null;
  alerts: Alerts | null;
  history: History | null;
}): () => Promise<void> {
  const { data, leadership, replicas, batchSteps, alerts, history } = parts;
  return async () => {
    data.client.close();
    await leadership.stop();
    await replicas?.stop();
    batchSteps?.stopListening();
    await batchSteps?.pipeline.deliveryIdle();
    alerts?.close();
    await history?.archiver.idle();
    await data.cache.idle();
    await data.persistence?.close();
  };
}

/** The handles of a built app, from the parts the root composed (null: that part is off). */
export function handlesOf(
  app: FastifyInstance,
  store: HistoryStore | null,
  parts: {
    holds: ReadinessHolds;
    cache: ResourceCache;
    batchSteps: { pipeline: BatchPipeline } | null;
    history: History | null;
    alerts: Alerts | null;
    sites: Sites | null;
    team: Team | null;
  },
): Bff {
  const { holds, cache, batchSteps, history, alerts, sites, team } = parts;
  return {
    app,
    store,
    upstreamIdle: () => cache.idle(),
    historyIdle: async () => {
      await batchSteps?.pipeline.watchIdle();
      await history?.archiver.idle();
    },
    alertsIdle: async () => batchSteps?.pipeline.deliveryIdle(),
    historyQuestionsWaiting: () => history?.questionsWaiting() ?? 0,
    demoWatchlist: async () => (alerts ? alerts.demoWatchlist() : 0),
    demoSites: async () => (sites ? sites.demoSites() : 0),
    teamIdle: async () => {
      await team?.expiry.idle();
      await team?.scoresFill.idle();
    },
    holdReadiness: (work, reason) => holds.hold(work, reason),
  };
}
