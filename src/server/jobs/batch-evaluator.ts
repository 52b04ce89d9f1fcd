import type { FastifyBaseLogger } from 'fastify';
import { reasonOf } from '../store/alerts.js';
import type { Database } from '../store/connection.js';
import { JobLoop } from './job-loop.js';

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

/**
 * What both evaluators of new batches share (the watchlists' rules, the site rule): passes run
 * on a job loop (jobs/job-loop.ts), one at a time; a pass asked for while another runs starts
 * when that one ends, whether it succeeded or failed, and asks made before it starts share it.
 * A failed pass is logged and rejects only its own askers; the next ask runs again.
 */
export abstract class BatchEvaluator {
  readonly #passes: JobLoop<number>;

  protected constructor(
    protected readonly deps: EvaluatorDeps,
    /** The log line of a failed pass. */
    failedPass: string,
  ) {
    this.#passes = new JobLoop({
      name: failedPass,
      run: () => this.pass(),
      logger: deps.logger,
      logFailure: (error) => deps.logger.error({ reason: reasonOf(error) }, failedPass),
    });
  }

  /** Evaluates every batch not evaluated yet; resolves to the number of new alerts. */
  async evaluatePending(): Promise<number> {
    // The loop never stops and has no leader check: every ask gets a pass.
    return (await this.#passes.request()) ?? 0;
  }

  /** Settles when the passes asked for so far have ended. */
  async idle(): Promise<void> {
    await this.#passes.idle();
  }

  /** One pass over the pending batches; resolves to the number of new alerts. */
  protected abstract pass(): Promise<number>;
}
