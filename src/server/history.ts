import type { FastifyInstance } from 'fastify';
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
import { HistoryStore } from './store/history-store.js';

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
}

export interface History {
  store: HistoryStore;
  recorder: BatchRecorder;
  archiver: EventArchiver;
  readonly coverage: HistoryStore['lastCoverage'];
  /** Registers the history routes (after the app's plugins, like every route). */
  registerRoutes(app: FastifyInstance): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The history of issue 7, wired in one place so app.ts stays short: the store (the one given, or
 * one opened from the config and closed with the app), the batch watch, the event archive.
 * Null when the configuration records no history.
 */
export async function startHistory(
  app: FastifyInstance,
  config: AppConfig,
  deps: { historyStore?: HistoryStore; scheduler?: Scheduler },
  parts: HistoryParts,
): Promise<History | null> {
  if (!deps.historyStore && !config.history) return null;
  const owned = !deps.historyStore;
  const store =
    deps.historyStore ??
    (await HistoryStore.open({
      dataDir: config.dataDir,
      databaseUrl: config.history?.databaseUrl ?? null,
      retentionDays: config.history?.retentionDays ?? null,
    }));
  const recorder = new BatchRecorder({
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
  const archiver = new EventArchiver(store, parts.now, app.log, parts.exportIndexes);
  parts.cache.onFetched((entry) => archiver.receive(entry));
  const answers = new HistoryAnswers(store, () => store.coverage());
  app.decorate('historyIdle', async () => {
    await recorder.idle();
    await archiver.idle();
  });
  recorder.start();
  app.log.info({ store: store.kind }, 'history store open; watching for batches');
  return {
    store,
    recorder,
    archiver,
    get coverage() {
      return store.lastCoverage;
    },
    registerRoutes: async (target) => {
      await target.register(historyRoutes, {
        answers,
        retentionStart: () => store.retentionStart(parts.now()),
      });
    },
    stop: async () => {
      await recorder.stop();
      await archiver.idle();
      if (owned) await store.close();
    },
  };
}
