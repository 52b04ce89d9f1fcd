/**
 * The CPU this process spent between two turns of its event loop, turn by turn: a figure of
 * how long one piece of work held the thread that does not depend on how busy the machine is
 * (a wall-clock loop delay at load 20 is mostly waiting for a core). A setImmediate chain reads
 * `process.cpuUsage()` once per turn; a turn's figure includes the process's other threads
 * (GC helpers, the libuv pool), so it is an upper bound of the main thread's stretch.
 */
export function watchCpuStretches(): { stop(): number[] } {
  let last = process.cpuUsage();
  const stretches: number[] = [];
  let on = true;
  const turn = (): void => {
    const now = process.cpuUsage();
    stretches.push((now.user - last.user + now.system - last.system) / 1000);
    last = now;
    if (on) setImmediate(turn);
  };
  setImmediate(turn);
  return {
    // The stretch running when it stops counts too: work that never let a turn through shows.
    stop: () => {
      on = false;
      turn();
      return stretches.sort((a, b) => b - a);
    },
  };
}
