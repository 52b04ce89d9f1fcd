import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { BatchTracker } from '../cache/batch.js';
import type { ResourceCache, ResourceSpec } from '../cache/resource-cache.js';
import type { AppConfig } from '../config.js';
import { BatchRecorder } from '../jobs/batch-recorder.js';
import { EventArchiver } from '../jobs/event-archiver.js';
import type { BatchPipeline } from '../jobs/pipeline.js';
import type { Scheduler } from '../jobs/scheduler.js';
import type { AsOfRouteParts } from '../routes/as-of.js';
import { batchRoutes } from '../routes/batches.js';
import { AsOfAnswers } from '../services/history/as-of-answers.js';
import { MoveExplanations } from '../services/history/explain.js';
import { historyRoutes } from '../routes/history.js';
import { BatchChainAnswers } from '../services/batches/batch-chain-answers.js';
import { HistoryAnswers } from '../services/history/history-answers.js';
import type { ExportIndexes } from '../services/upstream-resources/export-index.js';
import type {
  HotspotsValue,
  ResourceSpecs,
} from '../services/upstream-resources/resource-specs.js';
import type { HistoryStore } from '../store/history-store.js';
import { HistoryQuestionLimiter, type Admission } from '../history-question-limit.js';
import { StoreQueryLimiter } from '../store-query-limit.js';

export interface HistoryParts {
  store: HistoryStore;
  cache: ResourceCache;
  specs: ResourceSpecs;
  batch: BatchTracker;
  probe: () => ResourceSpec<HotspotsValue>;
  now: () => number;
  scheduler: Scheduler;
  logger: FastifyBaseLogger;
  exportIndexes: ExportIndexes;
  /** Called after events were archived (replicas tell the others their answers changed). */
  onArchived?: () => void;
  /** Who a request comes from, as the per-client limits count it (client-identity.ts). */
  clientKey: (request: FastifyRequest) => string;
}

export interface History {
  store: HistoryStore;
  archiver: EventArchiver;
  /** A new batch watch for one term of leadership (a stopped one does not start again). */
  newWatch(pipeline: BatchPipeline, isLeader: () => boolean): BatchRecorder;
  readonly coverage: HistoryStore['lastCoverage'];
  /** The limits on store queries of the history routes (per client, in flight). */
  readonly queryLimiter: StoreQueryLimiter;
  /** `?as_of=` of the data routes, answered from this store. */
  readonly asOf: AsOfRouteParts;
  /** Every history question's turn: its client's budget and the bounds on answers at once. */
  readonly questionLimiter: HistoryQuestionLimiter;
  /** A heavy request's turn under that same limiter (issue 29); `what` names it in a refusal. */
  admit(request: FastifyRequest, what?: string): Promise<Admission>;
  /** Registers the history routes (after the app's plugins, like every route). */
  registerRoutes(app: FastifyInstance): Promise<void>;
}

/**
 * The history of issue 7, its parts built on the store the composition root opened: the batch
 * watch (run by the leader, one per term), the event archive, the answers and their routes.
 */
export function composeHistory(config: AppConfig, parts: HistoryParts): History {
  const { store } = parts;
  const archiver = new EventArchiver(
    store,
    parts.now,
    parts.logger,
    parts.exportIndexes,
    parts.onArchived,
  );
  const answers = new HistoryAnswers(store, () => store.coverage());
  const queryLimiter = new StoreQueryLimiter(config.storeQueries, parts.now);
  const questionLimiter = new HistoryQuestionLimiter(config.historyQuestions, parts.now);
  const chain = new BatchChainAnswers(store);
  const asOf: AsOfRouteParts = {
    answers: new AsOfAnswers(store),
    guardFor: (request) => queryLimiter.guardFor(parts.clientKey(request)),
    admit: (request) => questionLimiter.admit(parts.clientKey(request)),
    retentionStart: () => store.retentionStart(parts.now()),
  };
  return {
    store,
    archiver,
    newWatch: (pipeline, isLeader) =>
      new BatchRecorder({
        store,
        record: (found, feedPoints) => pipeline.record(found, feedPoints),
        cache: parts.cache,
        specs: parts.specs,
        batch: parts.batch,
        policy: config.freshness,
        now: parts.now,
        scheduler: parts.scheduler,
        logger: parts.logger,
        probe: parts.probe,
        exportIndexes: parts.exportIndexes,
        isLeader,
      }),
    get coverage() {
      return store.lastCoverage;
    },
    queryLimiter,
    asOf,
    questionLimiter,
    admit: (request, what) => questionLimiter.admit(parts.clientKey(request), what),
    registerRoutes: async (target) => {
      await target.register(historyRoutes, {
        answers,
        explanations: new MoveExplanations(store),
        retentionStart: () => store.retentionStart(parts.now()),
        guardFor: (request) => queryLimiter.guardFor(parts.clientKey(request)),
        admit: (request) => questionLimiter.admit(parts.clientKey(request)),
      });
      await target.register(batchRoutes, {
        answers: chain,
        guardFor: (request) => queryLimiter.guardFor(parts.clientKey(request)),
        admit: (request, what) => questionLimiter.admit(parts.clientKey(request), what),
      });
    },
  };
}
