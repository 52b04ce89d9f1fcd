import { char, date, json, pgTable, primaryKey } from 'drizzle-orm/pg-core';

/*
 * The risk series of a sealed month (issue 20's exposure index), beside its blocks: drizzle.config
 * .ts lists this file. A month's block of one country carries every field of every point (about
 * 57 KB: two years of 20 countries are 28 MB of JSON), while the index needs only when and how
 * risky; this row is those two columns of the same points (about 1 KB).
 */

/** One country's batch times and risks of one sealed UTC month, oldest first, as in its block. */
export interface MonthRiskSeries {
  /** Batch times, ms since the epoch. */
  at: number[];
  risk: Array<number | null>;
}

export const monthRisks = pgTable(
  'month_risks',
  {
    iso: char('iso', { length: 3 }).notNull(),
    /** First day of the UTC month (as `country_months.month`). */
    month: date('month', { mode: 'string' }).notNull(),
    series: json('series').$type<MonthRiskSeries>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.iso, t.month] })],
);
