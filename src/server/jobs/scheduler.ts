/**
 * When the jobs run. Production uses timers against the wall clock; tests pass a scheduler driven
 * by their own clock, so "three batches pass" takes no real time and no sleep.
 */
export interface Scheduler {
  /** Runs `task` once the clock reaches `at` (epoch ms); returns a cancel function. */
  at(at: number, task: () => void): () => void;
}

// setTimeout's longest delay; a later time is reached by waking up and scheduling again.
const MAX_DELAY_MS = 2_147_483_647;

export function timerScheduler(now: () => number): Scheduler {
  return {
    at(at, task) {
      let timer: NodeJS.Timeout;
      const arm = (): void => {
        const delay = at - now();
        timer = setTimeout(
          () => (at - now() > 0 ? arm() : task()),
          Math.min(MAX_DELAY_MS, Math.max(0, delay)),
        );
        // A pending watch must not keep a finished process (or a test run) alive.
        timer.unref();
      };
      arm();
      return () => clearTimeout(timer);
    },
  };
}
