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
