/** Lengths of time in milliseconds, defined once for the server, the client and the demo upstream. */
export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;
