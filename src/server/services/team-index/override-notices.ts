import { tierLabel } from '../../../shared/tiers.js';
import { insertAlerts, type NewAlert } from '../../store/alerts.js';
import type { Database } from '../../store/connection.js';
import type { OverrideRow } from '../../store/team-index.js';
import { selectWatchlistPage } from '../../store/watchlists.js';
import { nameOfCode } from '../reference/display-names.js';
import { TimeSlice } from '../../work/time-slice.js';

/** Lists read at once (each holds at most 100 countries): a few kB. */
const LISTS_PER_PAGE = 100;
/** The notice's rule key: no rule raises it, the expiry does. */
export const OVERRIDE_EXPIRED_RULE = 'override_expired';

export function overrideExpiredMessage(row: OverrideRow): string {
  return (
    `Our override of ${nameOfCode(row.iso)} (${tierLabel(row.tier)}, “${row.reason}”, ` +
    `set by ${row.setBy}) ended at its expiry: the team view shows the tier of the team index ` +
    `again, and the provider's tier is unchanged`
  );
}

/**
 * The inbox notice of an override that ended at its expiry (issue 31), for every list that holds
 * the country. Once per list and override: the alert's unique key (list, rule, country, batch
 * time) takes the expiry as its time, so a second run adds nothing. Lists are read a page at a
 * time, yielding between pages.
 */
export async function noticeOverrideExpired(
  db: Database,
  row: OverrideRow,
  now: Date,
): Promise<number> {
  const slice = new TimeSlice();
  const at = row.expiresAt.toISOString();
  let cursor = 0;
  let added = 0;
  for (;;) {
    await slice.pause();
    const page = await selectWatchlistPage(db, cursor, LISTS_PER_PAGE);
    const notices: NewAlert[] = page
      .filter((list) => list.countries.includes(row.iso))
      .map((list) => ({
        watchlistId: list.id,
        ruleKey: OVERRIDE_EXPIRED_RULE,
        kind: 'override_expired',
        iso: row.iso,
        country: nameOfCode(row.iso),
        batchAsOf: row.expiresAt,
        message: overrideExpiredMessage(row),
        before: { as_of: at, risk: null, tier: row.tier, active: null },
        after: { as_of: at, risk: null, tier: null, active: null },
        createdAt: now,
      }));
    if (notices.length > 0) added += await insertAlerts(db, notices);
    if (page.length < LISTS_PER_PAGE) return added;
    cursor = page.at(-1)!.id;
  }
}
