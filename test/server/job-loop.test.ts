import { describe, expect, it } from 'vitest';
import { JobLoop, type JobLoopOptions } from '../../src/server/jobs/job-loop.js';
import { TestClock } from '../helpers/clock.js';
import { ManualScheduler } from '../helpers/manual-scheduler.js';

/*
 * The one loop the background jobs run on (jobs/job-loop.ts), on its own: a test clock and a
 * scheduler the test drives, runs the test holds open and lets go.
 */
const silent = { info() {}, warn() {}, error() {} } as never;

/** One turn of the event loop: whatever was ready has run. */
const turn = (): Promise<void> => new Promise((done) => setImmediate(done));

/** A run the test lets go of: `release()` ends the oldest run still held. */
function heldRuns() {
  const held: Array<() => void> = [];
  let running = 0;
  let most = 0;
  let started = 0;
  return {
    run: async (): Promise<number | null> => {
      started += 1;
      running += 1;
      most = Math.max(most, running);
      await new Promise<void>((resolve) => held.push(resolve));
      running -= 1;
      return null;
    },
    /** The same held run for a job run only when asked: resolves to its own number (1, 2, …). */
    counted: async (): Promise<number> => {
      started += 1;
      const mine = started;
      running += 1;
      most = Math.max(most, running);
      await new Promise<void>((resolve) => held.push(resolve));
      running -= 1;
      return mine;
    },
    release: () => held.shift()?.(),
    get started() {
      return started;
    },
    get most() {
      return most;
    },
  };
}

function loop(clock: TestClock, options: Partial<JobLoopOptions>) {
  const scheduler = new ManualScheduler(clock.now);
  const job = new JobLoop({
    name: 'test job',
    run: async () => null,
    scheduler,
    now: clock.now,
    logger: silent,
    ...options,
  });
  return { job, scheduler };
}

describe('the job loop', () => {
  it('stop while a run is in progress waits for that run, and starts none after', async () => {
    const runs = heldRuns();
    const { job } = loop(new TestClock(0), { run: runs.run });
    job.start();
    await turn();
    expect(runs.started).toBe(1);
    let stopped = false;
    const stopping = job.stop().then(() => (stopped = true));
    job.kick();
    await turn();
    expect(stopped).toBe(false);
    runs.release();
    await stopping;
    expect(stopped).toBe(true);
    expect(runs.started).toBe(1);
  });

  it('a run queued before stop() never starts', async () => {
    const runs = heldRuns();
    const { job } = loop(new TestClock(0), { run: runs.run });
    job.start();
    await turn();
    // Queued behind the run in progress, then the loop is stopped before it could start.
    job.kick();
    const stopping = job.stop();
    runs.release();
    await stopping;
    expect(runs.started).toBe(1);
  });

  it('backs off after failures, doubling up to its ceiling, and starts over after a success', async () => {
    const clock = new TestClock(1_000_000);
    let fail = true;
    const { job, scheduler } = loop(clock, {
      run: async () => {
        if (fail) throw new Error('store down');
        return clock.now() + 60_000;
      },
      backoff: { firstMs: 1_000, maxMs: 5_000 },
    });
    const waits: number[] = [];
    job.start();
    for (let i = 0; i < 5; i += 1) {
      await job.idle();
      waits.push(scheduler.nextAt()! - clock.now());
      clock.set(scheduler.nextAt()!);
      scheduler.runDue();
    }
    expect(waits).toEqual([1_000, 2_000, 4_000, 5_000, 5_000]);
    fail = false;
    await job.idle();
    expect(scheduler.nextAt()! - clock.now()).toBe(60_000);
    expect(job.failures).toBe(0);
    fail = true;
    job.kick();
    await job.idle();
    expect(scheduler.nextAt()! - clock.now()).toBe(1_000);
    await job.stop();
  });

  it('leader-only: skips runs while this process does not lead', async () => {
    let leading = false;
    let runs = 0;
    const { job } = loop(new TestClock(0), {
      run: async () => {
        runs += 1;
        return null;
      },
      isLeader: () => leading,
    });
    job.start();
    await job.idle();
    expect(runs).toBe(0);
    leading = true;
    job.kick();
    await job.idle();
    expect(runs).toBe(1);
    leading = false;
    job.kick();
    await job.idle();
    expect(runs).toBe(1);
    await job.stop();
  });

  it('never runs twice at once: kicks during a run make exactly one more run, after it', async () => {
    const runs = heldRuns();
    const { job } = loop(new TestClock(0), { run: runs.run });
    job.start();
    await turn();
    job.kick();
    job.kick();
    job.kick();
    await turn();
    expect(runs.started).toBe(1);
    runs.release();
    await turn();
    expect(runs.started).toBe(2);
    runs.release();
    await job.idle();
    expect(runs.started).toBe(2);
    expect(runs.most).toBe(1);
    await job.stop();
  });
});

describe('a job run only when asked', () => {
  it('requests made while a run is queued share that run and its result', async () => {
    const runs = heldRuns();
    const job = new JobLoop({ name: 'asked job', run: runs.counted, logger: silent });
    const first = job.request();
    await turn();
    // Asked while the first runs: one more run, after it, shared by all three askers.
    const asked = [job.request(), job.request(), job.request()];
    await turn();
    expect(runs.started).toBe(1);
    runs.release();
    expect(await first).toBe(1);
    await turn();
    expect(runs.started).toBe(2);
    runs.release();
    expect(await Promise.all(asked)).toEqual([2, 2, 2]);
    await job.idle();
    expect(runs.started).toBe(2);
    expect(runs.most).toBe(1);
  });

  it('a failed run rejects its askers, is logged in the job’s words, and is not retried', async () => {
    const logged: Array<[unknown, number]> = [];
    let runs = 0;
    const job = new JobLoop<number>({
      name: 'asked job',
      run: async () => {
        runs += 1;
        if (runs === 1) throw new Error('store down');
        return 7;
      },
      logger: silent,
      logFailure: (error, failures) => logged.push([(error as Error).message, failures]),
    });
    await expect(job.request()).rejects.toThrow('store down');
    await job.idle();
    expect(logged).toEqual([['store down', 1]]);
    // No schedule: nothing runs again until asked.
    await turn();
    expect(runs).toBe(1);
    expect(await job.request()).toBe(7);
    expect(job.failures).toBe(0);
  });

  it('a stopped loop runs nothing more and answers its askers with null', async () => {
    const runs = heldRuns();
    const job = new JobLoop({ name: 'asked job', run: runs.counted, logger: silent });
    await job.stop();
    expect(await job.request()).toBeNull();
    expect(runs.started).toBe(0);
  });
});
