import { z } from 'zod/mini';
import { alertRuleSchema, watchlistInputSchema } from './alerts-api.js';
import { methodMarkSchema } from './method-api.js';

/**
 * Rules tried on history (issue 22): `POST /api/watchlists/backtest`. How often each rule would
 * have fired over the stored history, per country, evaluated by the same code as live alerts.
 * Times are ISO 8601 UTC strings.
 */

/** Batches listed per country and rule (the newest); `count` is always the whole number. */
export const BACKTEST_BATCHES_LISTED = 200;
/** Alerts listed in `last_90_days.alerts` (the newest); `count` is the whole number. */
export const BACKTEST_ALERTS_LISTED = 500;
export const BACKTEST_RECENT_DAYS = 90;

export const backtestRequestSchema = z.union(
  [
    z.strictObject({
      countries: watchlistInputSchema.shape.countries,
      rules: z
        .array(alertRuleSchema, { error: 'rules must be a list of alert rules' })
        .check(
          z.minLength(1, 'rules must list at least one rule'),
          z.maxLength(20, 'at most 20 rules'),
        ),
    }),
    z.strictObject({ watchlist_id: z.string({ error: 'watchlist_id must be a string' }) }),
  ],
  { error: 'the body must be {"countries": [...], "rules": [...]} or {"watchlist_id": "..."}' },
);
export type BacktestRequest = z.infer<typeof backtestRequestSchema>;

export const backtestRuleResultSchema = z.looseObject({
  /** The rule's key (`active_change:10`), as alerts name it. */
  rule: z.string(),
  /** Batches it would have fired in over the whole history. */
  count: z.int(),
  /** Of those, in the last 90 days (counted back from the newest batch). */
  last_90_days: z.int(),
  /** `as_of` of the batches it fired in, newest first (at most 200). */
  batches: z.array(z.string()),
});

export const backtestCountrySchema = z.looseObject({
  iso: z.string(),
  /** Batches the country was in. */
  batches: z.int(),
  rules: z.array(backtestRuleResultSchema),
  /**
   * A threshold for `active_change` from the country's own volatility: the 95th percentile of its
   * batch-to-batch |Δ active| (one decimal; null with fewer than two batches).
   */
  suggested_min_abs_delta: z.nullable(z.number()),
});

/**
 * A provider's method change the history tried crosses (issue 31): as the live evaluator does,
 * the rules comparing two batches are held there (`held_firings` of them would have fired) and
 * its jump is left out of `suggested_min_abs_delta`; breaking events count as usual.
 */
export const backtestMethodChangeSchema = z.extend(methodMarkSchema, {
  held_firings: z.int(),
});
export type BacktestMethodChange = z.infer<typeof backtestMethodChangeSchema>;

export const backtestResponseSchema = z.looseObject({
  ok: z.literal(true),
  /** The history tried: first and last batch, and how many. */
  from: z.nullable(z.string()),
  to: z.nullable(z.string()),
  batches: z.int(),
  rules: z.array(z.string()),
  countries: z.array(backtestCountrySchema),
  /** What would have been sent in the last 90 days: one alert per rule, country and batch. */
  last_90_days: z.looseObject({
    since: z.nullable(z.string()),
    count: z.int(),
    alerts: z.array(
      z.looseObject({ as_of: z.string(), iso: z.string(), rule: z.string(), message: z.string() }),
    ),
  }),
  /** The method changes not marked comparable in the history tried, oldest first. */
  method_changes: z.optional(z.array(backtestMethodChangeSchema)),
});
export type BacktestResponse = z.infer<typeof backtestResponseSchema>;
