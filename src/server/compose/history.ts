import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { BatchTracker } from '../cache/batch.js';
import type { ResourceCache, ResourceSpec } from '../cache/resource-cache.js';
import { DEFAULT_STORE_LIMITS, type HistoryConfig } from '../config.js';
import { BatchRecorder } from '../jobs/batch-recorder.js';
import { EventArchiver } from '../jobs/event-archiver.js';
import type { BatchPipeline } from '../jobs/pipeline.js';
import type { Scheduler } from '../jobs/scheduler.js';
import type { AsOfRouteParts } from '../routes/as-of.js';
import type { BatchRouteOptions } from '../routes/batches.js';
import type { HistoryRouteOptions } from '../routes/history.js';
import { BatchChainAnswers } from '../services/batches/batch-chain-answers.js';
import { AsOfAnswers } from '../services/history/as-of-answers.js';
import { MoveExplanations } from '../services/history/explain.js';
import { HistoryAnswers } from '../services/history/history-answers.js';
import type { ExportIndexes } from '../services/upstream-resources/export-index.js';
import type {
  HotspotsValue,
  ResourceSpecs,
} from '../services/upstream-resources/resource-specs.js';
import type { HistoryStore } from '../store/history-store.js';
import { nextBatchDue, type FreshnessPolicy } from '../../shared/freshness.js';
import {
  StoreQuestionLimiter,
  type Admission,
  type StoreQueryGuard,
} from '../store-question-limit.js';

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
  /** A request's store queries: its client's rate and the bound on queries at once. */
  guardFor(request: FastifyRequest): StoreQueryGuard;
  /**
   * A request's question, or a heavy request's turn (issue 29: verification, backtest, import):
   * under its client's budget (store-question-limit.ts); `what` names it in a refusal.
   */
  admit(request: FastifyRequest, what?: string): Promise<Admission>;
  /** Questions waiting for their turn, all clients together. */
  questionsWaiting(): number;
  /** A limiter with the same limits and its own counts (feed tokens count apart). */
  newQuestionLimiter(): StoreQuestionLimiter;
  /** `?as_of=` of the data routes, answered from this store. */
  readonly asOf: AsOfRouteParts;
  /** What the history and batch routes answer with; the root registers them. */
  readonly routes: { history: HistoryRouteOptions; batches: BatchRouteOptions };
}

/**
 * The history, its parts built on the store the composition root opened: the batch watch (run
 * by the leader, one per term), the event archive, the answers and what their routes need.
 */
export function composeHistory(
  settings: Pick<HistoryConfig, 'storeQuestions'> & {
    /** When the batch watch looks for a new batch (the data part's freshness policy). */
    policy: FreshnessPolicy;
  },
  parts: HistoryParts,
): History {
  const { store } = parts;
  const { policy } = settings;
  const archiver = new EventArchiver(
    store,
    parts.now,
    parts.logger,
    parts.exportIndexes,
    parts.onArchived,
  );
  const limiter = new StoreQuestionLimiter(
    { ...DEFAULT_STORE_LIMITS, ...settings.storeQuestions },
    parts.now,
  );
  const guardFor = (request: FastifyRequest): StoreQueryGuard =>
    limiter.guardFor(parts.clientKey(request));
  const admit = (request: FastifyRequest, what?: string): Promise<Admission> =>
    limiter.admit(parts.clientKey(request), what);
  const retentionStart = (): Date | null => store.retentionStart(parts.now());
  const answers = new HistoryAnswers(store, () => store.coverage());
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
        freshMs: policy.freshMs,
        nextBatchDue: (at) => nextBatchDue(at, policy),
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
    guardFor,
    admit,
    questionsWaiting: () => limiter.waiting,
    newQuestionLimiter: () => limiter.sibling(),
    asOf: { answers: new AsOfAnswers(store), guardFor, admit, retentionStart },
    routes: {
      history: {
        answers,
        explanations: new MoveExplanations(store, () => answers.methodMarks()),
        retentionStart,
        guardFor,
        admit,
      },
      batches: { answers: new BatchChainAnswers(store), guardFor, admit },
    },
  };
}
