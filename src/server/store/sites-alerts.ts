import { and, asc, eq, gt, gte, isNull, sql } from 'drizzle-orm';
import type { WebhookFormat } from '../../shared/alerts-api.js';
import { watchlists } from './alerts-schema.js';
import {
  insertAlertRows,
  insertDeliveryRows,
  selectPendingBatches,
  type AlertRow,
  type BatchRef,
  type NewAlert,
  type NewDelivery,
} from './alerts.js';
import type { Database } from './connection.js';
import { batches } from './schema.js';
import { siteAlertEvaluations, siteAlertTarget, sites } from './sites-schema.js';
import { saveWatchlistAt, type WatchlistRow } from './watchlists.js';

/** What the site rule reads of a site (not its tags, value or placement). */
export type SiteRuleRow = Pick<
  typeof sites.$inferSelect,
  | 'id'
  | 'ref'
  | 'name'
  | 'iso'
  | 'kind'
  | 'people'
  | 'tripFrom'
  | 'tripTo'
  | 'nearby'
  | 'alertOn'
  | 'alertRadiusKm'
  | 'alertMinDelta'
>;

/** Up to `limit` sites with the rule on and an id above `afterId`, by id (a chunk). */
export async function selectRuleSites(
  db: Database,
  afterId: number,
  limit: number,
): Promise<SiteRuleRow[]> {
  return db
    .select({
      id: sites.id,
      ref: sites.ref,
      name: sites.name,
      iso: sites.iso,
      kind: sites.kind,
      people: sites.people,
      tripFrom: sites.tripFrom,
      tripTo: sites.tripTo,
      nearby: sites.nearby,
      alertOn: sites.alertOn,
      alertRadiusKm: sites.alertRadiusKm,
      alertMinDelta: sites.alertMinDelta,
    })
    .from(sites)
    .where(and(gt(sites.id, afterId), eq(sites.alertOn, true)))
    .orderBy(asc(sites.id))
    .limit(limit);
}

/** Batches with country rows at or after `since` that the site rule has not evaluated, oldest first. */
export async function selectSiteRuleBatches(
  db: Database,
  since: Date,
  limit: number,
): Promise<BatchRef[]> {
  return selectPendingBatches(
    db,
    { table: siteAlertEvaluations, batchId: siteAlertEvaluations.batchId },
    and(gte(batches.asOf, since), isNull(siteAlertEvaluations.batchId)),
    limit,
  );
}

const TARGET_LOCK = 'sites:alert-target';
export const SITE_ALERT_LIST_NAME = 'Our sites';

export async function selectSiteAlertList(db: Database): Promise<WatchlistRow | null> {
  const [row] = await db
    .select({ list: watchlists })
    .from(siteAlertTarget)
    .innerJoin(watchlists, eq(watchlists.id, siteAlertTarget.watchlistId))
    .where(eq(siteAlertTarget.id, 1));
  return row?.list ?? null;
}

/**
 * The team list "Our sites" that site alerts belong to, made on first need. No countries and no
 * rules of its own: the watchlist evaluation finds nothing in it; only the site rule writes to it.
 * One at most: made under a lock, pointed at by the one row of `site_alert_target`.
 */
export async function ensureSiteAlertList(db: Database): Promise<WatchlistRow> {
  const found = await selectSiteAlertList(db);
  if (found) return found;
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${TARGET_LOCK}))`);
    const again = await selectSiteAlertList(tx);
    if (again) return again;
    const [list] = await tx
      .insert(watchlists)
      .values({ name: SITE_ALERT_LIST_NAME, countries: [], rules: [], owner: null })
      .returning();
    if (!list) throw new Error('the "Our sites" list could not be made');
    await tx
      .insert(siteAlertTarget)
      .values({ id: 1, watchlistId: list.id })
      .onConflictDoUpdate({ target: siteAlertTarget.id, set: { watchlistId: list.id } });
    return list;
  });
}

/** Sets where site alerts are sent (the "Our sites" list's webhook and e-mail) if still at `version`. */
export async function updateSiteAlertDelivery(
  db: Database,
  listId: number,
  version: number,
  values: {
    webhookUrl: string | null;
    webhookFormat: WebhookFormat;
    webhookSecret: string | null;
    email: string | null;
  },
): Promise<WatchlistRow | null> {
  // Saving lifts a pause, as saving a watchlist does.
  return saveWatchlistAt(db, listId, version, values);
}

/**
 * Writes one batch's site alerts and their deliveries in one transaction, or nothing (null) when
 * the batch was already evaluated. Once per batch: the `site_alert_evaluations` row is inserted
 * first and only by one writer (its primary key); once per alert: `alerts_once_key` (list,
 * rule "site", country, batch); deliveries are built only from the alerts this call inserted.
 */
export async function writeSiteAlerts(
  db: Database,
  batchId: number,
  rows: NewAlert[],
  deliveriesFor: (inserted: AlertRow[]) => NewDelivery[],
): Promise<AlertRow[] | null> {
  return db.transaction(async (tx) => {
    const claimed = await tx
      .insert(siteAlertEvaluations)
      .values({ batchId, alerts: 0 })
      .onConflictDoNothing()
      .returning({ batchId: siteAlertEvaluations.batchId });
    if (claimed.length === 0) return null;
    const inserted = await insertAlertRows(tx, rows);
    await insertDeliveryRows(tx, deliveriesFor(inserted));
    if (inserted.length > 0) {
      await tx
        .update(siteAlertEvaluations)
        .set({ alerts: inserted.length })
        .where(eq(siteAlertEvaluations.batchId, batchId));
    }
    return inserted;
  });
}
