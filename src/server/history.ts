import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Leadership } from './replicas/leadership.js';
import type { BatchTracker } from './cache/batch.js';
import type { ResourceCache, ResourceSpec } from './cache/resource-cache.js';
import type { AppConfig } from './config.js';
import { BatchRecorder } from './jobs/batch-recorder.js';
import { EventArchiver } from './jobs/event-archiver.js';
import { timerScheduler, type Scheduler } from './jobs/scheduler.js';
import { historyRoutes } from './routes/history.js';
import { HistoryAnswers } from './services/history/history-answers.js';
import type { ExportIndexes } from './services/upstream-resources/export-index.js';
import type { HotspotsValue, ResourceSpecs } from './services/upstream-resources/resource-specs.js';
import type { HistoryStore } from './store/history-store.js';
import { StoreQueryLimiter } from './store-query-limit.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Settles when the batch watch and the event archive have nothing in progress. */
    historyIdle(): Promise<void>;
  }
}

export interface HistoryParts {
  cache: ResourceCache;
  specs: ResourceSpecs;
  batch: BatchTracker;
  probe: () => ResourceSpec<HotspotsValue>;
  now: () => number;
  exportIndexes: ExportIndexes;
  /** Who runs the batch watch: this process, or the replica holding the leader lease. */
  leadership: Leadership;
  /** Called after events were archived (replicas tell the others their answers changed). */
  onArchived?: () => void;
  /** Who a request comes from, as the per-client limits count it (client-identity.ts). */
  clientKey: (request: FastifyRequest) => string;
}

export interface History {
  store: HistoryStore;
  archiver: EventArchiver;
  /** Makes the batch watch (when this process runs it) check now: another replica saw a batch. */
  checkNow(): void;
  readonly coverage: HistoryStore['lastCoverage'];
  /** The limits on store queries of the history routes (per client, in flight). */
  readonly queryLimiter: StoreQueryLimiter;
  /** Registers the history routes (after the app's plugins, like every route). */
  registerRoutes(app: FastifyInstance): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The history of issue 7, wired in one place so app.ts stays short: the batch watch (run by the
 * leader), the event archive, their routes, on the store app.ts opened.
 */
export function startHistory(
  app: FastifyInstance,
  config: AppConfig,
  deps: { store: HistoryStore; scheduler?: Scheduler },
  parts: HistoryParts,
): History {
  const { store } = deps;
  const newRecorder = (): BatchRecorder =>
    new BatchRecorder({
      store,
      cache: parts.cache,
      specs: parts.specs,
      batch: parts.batch,
      policy: config.freshness,
      now: parts.now,
      scheduler: deps.scheduler ?? timerScheduler(parts.now),
      logger: app.log,
      probe: parts.probe,
      exportIndexes: parts.exportIndexes,
    });
  // One recorder per term of leadership (a stopped one does not start again).
  let recorder: BatchRecorder | null = null;
  parts.leadership.whileLeading(() => {
    const term = newRecorder();
    recorder = term;
    term.start();
    app.log.info({ store: store.kind }, 'watching for batches');
    return async () => {
      await term.stop();
      if (recorder === term) recorder = null;
    };
  });
  // A page's request that shows a new batch starts the recording now, not at the next wake.
  parts.cache.onNewBatch(() => recorder?.checkNow());
  const archiver = new EventArchiver(
    store,
    parts.now,
    app.log,
    parts.exportIndexes,
    parts.onArchived,
  );
  parts.cache.onFetched((entry) => archiver.receive(entry));
  const answers = new HistoryAnswers(store, () => store.coverage());
  const queryLimiter = new StoreQueryLimiter(config.storeQueries, parts.now);
  app.decorate('historyIdle', async () => {
    await recorder?.idle();
    await archiver.idle();
  });
  return {
    store,
    archiver,
    checkNow: () => recorder?.checkNow(),
    get coverage() {
      return store.lastCoverage;
    },
    queryLimiter,
    registerRoutes: async (target) => {
      await target.register(historyRoutes, {
        answers,
        retentionStart: () => store.retentionStart(parts.now()),
        guardFor: (request) => queryLimiter.guardFor(parts.clientKey(request)),
      });
    },
    stop: async () => {
      await recorder?.stop();
      await archiver.idle();
    },
  };
}
