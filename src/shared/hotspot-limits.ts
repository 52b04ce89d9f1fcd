/**
 * The hotspot list's `limit` as the API documents it: at most 50 rows, 20 when not given. The
 * BFF always asks for the maximum and serves smaller limits by slicing; the SPA offers 1–50.
 */
export const HOTSPOT_MAX_LIMIT = 50;
export const HOTSPOT_DEFAULT_LIMIT = 20;
