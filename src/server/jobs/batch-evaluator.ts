import type { FastifyBaseLogger } from 'fastify';
import { reasonOf } from '../store/alerts.js';
import type { Database } from '../store/connection.js';

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
 * one at a time, a pass asked for while another runs starting when that one ends, whether it
 * succeeded or failed. A failed pass is logged and rejects only its own caller; the next runs.
 */
export abstract class BatchEvaluator {
  #running: Promise<number> = Promise.resolve(0);

  protected constructor(
    protected readonly deps: EvaluatorDeps,
    /** The log line of a failed pass. */
    private readonly failedPass: string,
  ) {}

  /** Evaluates every batch not evaluated yet; resolves to the number of new alerts. */
  evaluatePending(): Promise<number> {
    const next = this.#running.then(
      () => this.pass(),
      () => this.pass(),
    );
    this.#running = next.catch((error: unknown) => {
      this.deps.logger.error({ reason: reasonOf(error) }, this.failedPass);
      return 0;
    });
    return next;
  }

  /** Settles when the passes asked for so far have ended. */
  async idle(): Promise<void> {
    await this.#running;
  }

  /** One pass over the pending batches; resolves to the number of new alerts. */
  protected abstract pass(): Promise<number>;
}
