import type { SQL } from 'drizzle-orm';

/** Stops a job started for one term of leadership; settles when it has stopped. */
export type StopJob = () => Promise<void>;

/**
 * Who runs the jobs that must run once for the whole BFF (the batch watch, alert evaluation,
 * delivery). One process leads for good; among replicas the holder of the leader lease does.
 */
export interface Leadership {
  /**
   * Runs `start` whenever this process becomes the leader, and what it returns when it stops
   * being one. `fence` is the SQL condition "this term is still current" for fenced writes (null
   * for one process).
   */
  whileLeading(start: (fence: SQL | null) => StopJob): void;
  isLeader(): boolean;
  /** Stops the jobs (a replica also hands its lease over at once). */
  stop(): Promise<void>;
}

/** One process, no replicas: it leads from the start until it closes. */
export class SoloLeadership implements Leadership {
  readonly #stops: StopJob[] = [];
  #closed = false;

  whileLeading(start: (fence: SQL | null) => StopJob): void {
    if (!this.#closed) this.#stops.push(start(null));
  }

  isLeader(): boolean {
    return !this.#closed;
  }

  async stop(): Promise<void> {
    this.#closed = true;
    await Promise.all(this.#stops.splice(0).map((stop) => stop()));
  }
}
