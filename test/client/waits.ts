/**
 * How long a client test waits for a condition (findBy, waitFor, vi.waitFor) before it fails.
 * Sized for the shared 2-core machine with two other CPU-bound jobs on it (issue 30, point 4;
 * `scripts/loaded-test.mjs`): a lazy chunk (recharts, the country route) imported inside jsdom
 * took over 5 s there. A limit, not a wait: a test goes on as soon as its condition holds.
 */
export const WAIT_MS = 15_000;

/** The options of a wait with that limit, for `vi.waitFor` (its own default is 1 s). */
export const LOADED = { timeout: WAIT_MS };
