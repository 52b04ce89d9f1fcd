import { rmSync } from 'node:fs';
import { startBuiltMain } from './built-main.js';

export interface StartUpStalls {
  /** From spawn to listening. */
  listenSeconds: number;
  /** From listening to the first 200 of /readyz (the demo seed and its watchlist and sites). */
  readySeconds: number | null;
  answers: number;
  over100: number;
  over200: number;
  /** Slowest answers, ms, with when they were asked (s after listening). */
  slowest: { ms: number; atSeconds: number }[];
  /** Answers other than 200 (a 503 "not ready" would be honest, but counts here). */
  failed: number;
}

const POLL_MS = 200;
const AFTER_READY_MS = 3_000;
const GIVE_UP_MS = 240_000;

/**
 * Issue 32, point 6: `npm start`'s BFF on an empty DATA_DIR (the 90-day demo seed runs), with
 * `/api/v1/hotspots` asked every 200 ms from the moment it listens until 3 s after `/readyz`
 * first says 200; each answer's time from asking to its last byte. Requests are not serialised:
 * one that waits behind the seed does not delay the next one's asking.
 */
export async function runStartUpStalls(): Promise<StartUpStalls> {
  const main = await startBuiltMain('grd-bench-stalls-');
  const started = performance.now();
  const timings: { ms: number; atSeconds: number; status: number }[] = [];
  let readyAt: number | null = null;
  const ask = async (path: string) => {
    const at = performance.now();
    const response = await fetch(`${main.url}${path}`);
    await response.arrayBuffer();
    return { status: response.status, ms: performance.now() - at, at };
  };
  try {
    const pending: Promise<void>[] = [];
    while (performance.now() - started < GIVE_UP_MS) {
      if (readyAt !== null && performance.now() - readyAt > AFTER_READY_MS) break;
      pending.push(
        ask('/api/v1/hotspots').then(({ status, ms, at }) => {
          timings.push({ status, ms, atSeconds: (at - started) / 1000 });
        }),
        ask('/readyz').then(({ status, at }) => {
          if (status === 200 && readyAt === null) readyAt = at;
        }),
      );
      await new Promise((done) => setTimeout(done, POLL_MS));
    }
    await Promise.all(pending);
  } finally {
    main.child.kill('SIGTERM');
    await new Promise((done) => main.child.once('exit', done));
    rmSync(main.dataDir, { recursive: true, force: true });
  }
  const sorted = [...timings].sort((a, b) => b.ms - a.ms);
  return {
    listenSeconds: main.seconds,
    readySeconds: readyAt === null ? null : (readyAt - started) / 1000,
    answers: timings.length,
    over100: timings.filter((t) => t.ms > 100).length,
    over200: timings.filter((t) => t.ms > 200).length,
    slowest: sorted.slice(0, 5).map(({ ms, atSeconds }) => ({ ms, atSeconds })),
    failed: timings.filter((t) => t.status !== 200).length,
  };
}
