// A faster wall clock for a simulated day across processes: the team day (8 hours) runs in about
// a minute against real replica processes. Loaded into each replica with
// `node --import ./scripts/bench/warped-clock.mjs dist/node/server/main.js` and CLOCK_WARP set;
// the test process gives the demo upstream the same function as its `now`.
//
// What is warped and why that is sound:
// - Date.now() and `new Date()` (no arguments) return
//     virtualStart + (real now − realStart) × factor,
//   the same function of the machine's one real clock in every process, so the replicas, the
//   demo upstream and the driver agree on "now" to within a millisecond × factor. Everything the
//   budget depends on reads this clock: the demo upstream's batch schedule and its hourly quota
//   window, the BFF's freshness windows, its quota log and the shared ledger's hours.
// - Before `realStart` the clock stands still at `virtualStart`: replicas start and become ready
//   first (they may need seconds), and the day starts for everyone at the same real moment.
//   `realStart` comes from the environment, or, when absent, from the harness over the IPC
//   channel ({clockStart: <real ms>}) once every process is up.
// - Timers (setTimeout, setInterval) and performance.now() are left alone: connection and
//   request timeouts, retries and the leader lease keep their real-time meaning (PostgreSQL's own
//   clock, which the lease uses, is not warped either). The cost: work a replica starts from a
//   timer (the batch watch's periodic wake-up) runs `factor` times less often in virtual time.
//   The bench's inject-driven day has the same property (its timers fire in real time while the
//   virtual clock stands at the next visit), so in both the analysts' requests drive every
//   freshness check, and the 1-replica and 3-replica runs are measured alike.
//
// CLOCK_WARP = "<virtualStart ms>:<factor>[:<realStart ms>]"

/**
 * @param {{ virtualStart: number, factor: number, realStart: number | null }} warp
 * @param {() => number} realNow
 * @returns {() => number}
 */
export function warpedNow(warp, realNow) {
  return () => {
    if (warp.realStart === null) return warp.virtualStart;
    const real = realNow();
    return real <= warp.realStart
      ? warp.virtualStart
      : Math.floor(warp.virtualStart + (real - warp.realStart) * warp.factor);
  };
}

/**
 * @param {string} text
 * @returns {{ virtualStart: number, factor: number, realStart: number | null }}
 */
export function parseWarp(text) {
  const [virtualStart, factor, realStart] = text.split(':').map(Number);
  if (!Number.isFinite(virtualStart) || !Number.isFinite(factor) || factor <= 0) {
    throw new Error(`CLOCK_WARP must be "<virtual start ms>:<factor>[:<real start ms>]": ${text}`);
  }
  return { virtualStart, factor, realStart: Number.isFinite(realStart) ? realStart : null };
}

/** Replaces the global Date so that now-readings follow `now`; every other use is unchanged. */
function installWarp(now) {
  const RealDate = Date;
  /** @this {unknown} */
  function WarpedDate(...args) {
    if (!new.target) return new RealDate(now()).toString();
    return args.length === 0 ? new RealDate(now()) : new RealDate(...args);
  }
  WarpedDate.prototype = RealDate.prototype;
  WarpedDate.now = now;
  WarpedDate.parse = RealDate.parse;
  WarpedDate.UTC = RealDate.UTC;
  globalThis.Date = /** @type {DateConstructor} */ (/** @type {unknown} */ (WarpedDate));
}

const configured = process.env.CLOCK_WARP;
if (configured) {
  const warp = parseWarp(configured);
  const realNow = Date.now.bind(Date);
  installWarp(warpedNow(warp, realNow));
  if (warp.realStart === null && process.channel) {
    process.on('message', (message) => {
      const start = message && typeof message === 'object' ? message.clockStart : undefined;
      if (typeof start === 'number' && warp.realStart === null) warp.realStart = start;
    });
    // The channel must not keep a replica alive after it closes its server.
    process.channel.unref();
  }
}
