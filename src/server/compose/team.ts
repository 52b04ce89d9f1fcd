import type { FastifyBaseLogger } from 'fastify';
import { BatchScoresFill } from '../jobs/batch-scores-fill.js';
import { overrideExpiryJob } from '../jobs/override-expiry.js';
import type { JobLoop } from '../jobs/job-loop.js';
import type { Scheduler } from '../jobs/scheduler.js';
import type { TeamIndexRouteOptions } from '../routes/team-index.js';
import type { AuditLog } from '../services/identity/audit.js';
import { Overrides } from '../services/team-index/overrides.js';
import { heldScores } from '../services/team-index/team-changes.js';
import { TeamView } from '../services/team-index/team-view.js';
import { TeamWeights } from '../services/team-index/team-weights.js';
import type { HistoryStore } from '../store/history-store.js';
import { selectBatchScoresAt } from '../store/team-index.js';

export interface Team {
  view: TeamView;
  routes: TeamIndexRouteOptions;
  /** Ends overrides at their expiry; started once the app is built, stopped when it closes. */
  expiry: JobLoop;
  /** Writes the compact scores of batches recorded without them (migration 0012's backfill). */
  scoresFill: JobLoop;
}

/**
 * Our own view of risk (issue 31) on the store the root opened: the weights, the overrides, the
 * team view the data and history routes answer `?index=team` with, the expiry job and the
 * filler of compact scores. It takes
 * no settings: its limits are the product's (src/shared/team-index-api.ts).
 */
export function composeTeam(parts: {
  store: HistoryStore;
  audit: AuditLog | null;
  now: () => number;
  scheduler: Scheduler;
  logger: FastifyBaseLogger;
}): Team {
  const db = parts.store.db;
  const weights = new TeamWeights(db, parts.now);
  const overrides = new Overrides(db, parts.now);
  const fill = new BatchScoresFill({ ...parts, db });
  const scores = {
    at: heldScores((times) => selectBatchScoresAt(db, times)),
    left: () => fill.remaining,
  };
  return {
    view: new TeamView(weights, overrides, scores),
    routes: { weights, overrides },
    expiry: overrideExpiryJob({ ...parts, db, overrides }),
    scoresFill: fill.job,
  };
}
