/**
 * Counts turns of the event loop (an immediate callback rescheduling itself) until `stop`: how
 * a test sees that work let other callbacks run, without reading a clock.
 */
export function countLoopTurns(): { turns: () => number; stop: () => void } {
  let turns = 0;
  let running = true;
  const tick = () => {
    turns += 1;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return { turns: () => turns, stop: () => (running = false) };
}

/**
 * The most protocol messages the embedded store (`client`, a PGlite) ran between two turns of the
 * event loop, from now until `stop`: PGlite runs each on the main thread, so a long run of them
 * is the thread held (issue 29). Counted, not timed.
 */
export function longestMessageRun(client: object): { stop(): number } {
  // Every message goes through this synchronous call into PGlite's WebAssembly (several a
  // statement: parse, bind, execute, sync).
  const target = client as { execProtocolRawSync: (...args: never[]) => unknown };
  const original = target.execProtocolRawSync;
  let run = 0;
  let longest = 0;
  let on = true;
  const turn = (): void => {
    run = 0;
    if (on) setImmediate(turn);
  };
  setImmediate(turn);
  target.execProtocolRawSync = (...args) => {
    run += 1;
    longest = Math.max(longest, run);
    return original.apply(client, args);
  };
  return {
    stop: () => {
      on = false;
      target.execProtocolRawSync = original;
      return longest;
    },
  };
}
