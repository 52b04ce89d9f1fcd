import type { Scheduler } from '../../src/server/jobs/scheduler.js';

/** A scheduler driven by a test's clock: `runDue()` runs what is due at the clock's time. */
export class ManualScheduler implements Scheduler {
  readonly #tasks = new Set<{ at: number; task: () => void }>();

  constructor(private readonly now: () => number) {}

  at(at: number, task: () => void): () => void {
    const item = { at, task };
    this.#tasks.add(item);
    return () => this.#tasks.delete(item);
  }

  /** Runs (once) every task whose time has come; returns how many ran. */
  runDue(): number {
    const due = [...this.#tasks].filter((item) => item.at <= this.now());
    for (const item of due) {
      this.#tasks.delete(item);
      item.task();
    }
    return due.length;
  }

  /** The earliest time a task waits for (null when none does). */
  nextAt(): number | null {
    const times = [...this.#tasks].map((item) => item.at);
    return times.length > 0 ? Math.min(...times) : null;
  }
}
