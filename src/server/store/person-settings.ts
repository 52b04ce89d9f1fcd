import { and, asc, eq, gt, isNotNull, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { AlertNumbers, AlertRowKind } from '../../shared/alerts-api.js';
import { alerts, deliveries } from './alerts-schema.js';
import type { Database } from './connection.js';
import { digestDeliveries, personSettings } from './person-settings-schema.js';
import { desc, inArray } from 'drizzle-orm';

export type PersonSettingsRow = typeof personSettings.$inferSelect;
export type DigestRow = typeof digestDeliveries.$inferSelect;

export async function selectPersonSettings(
  db: Database,
  subject: string,
): Promise<PersonSettingsRow | null> {
  const [row] = await db.select().from(personSettings).where(eq(personSettings.subject, subject));
  return row ?? null;
}

/** The settings of whoever receives e-mail at `address` (case-insensitive), if anyone saved some. */
export async function selectSettingsByEmail(
  db: Database,
  address: string,
): Promise<PersonSettingsRow | null> {
  const [row] = await db
    .select()
    .from(personSettings)
    .where(sql`lower(${personSettings.email}) = ${address.toLowerCase()}`)
    .orderBy(asc(personSettings.subject))
    .limit(1);
  return row ?? null;
}

/**
 * Saves a person's settings made against `version` (0: none saved yet): compare-and-set, so
 * two tabs saving at once never lose one unseen. Null when `version` is no longer current.
 */
export async function writePersonSettings(
  db: Database,
  // Left out, the language stays as saved (callers that predate it, issue 34).
  row: Omit<PersonSettingsRow, 'version' | 'language'> & { language?: string | null },
  version: number,
): Promise<PersonSettingsRow | null> {
  if (version === 0) {
    const [created] = await db
      .insert(personSettings)
      .values({ ...row, version: 1 })
      .onConflictDoNothing()
      .returning();
    return created ?? null;
  }
  const [updated] = await db
    .update(personSettings)
    .set({ ...row, version: version + 1 })
    .where(and(eq(personSettings.subject, row.subject), eq(personSettings.version, version)))
    .returning();
  return updated ?? null;
}

/** People with a daily digest and e-mail on, a page at a time by subject. */
export async function selectDigestPeople(
  db: Database,
  after: string,
  limit: number,
): Promise<PersonSettingsRow[]> {
  return db
    .select()
    .from(personSettings)
    .where(
      and(
        gt(personSettings.subject, after),
        isNotNull(personSettings.digestHour),
        eq(personSettings.emailEnabled, true),
        isNotNull(personSettings.email),
      ),
    )
    .orderBy(asc(personSettings.subject))
    .limit(limit);
}

export interface DigestAlert {
  iso: string;
  country: string;
  message: string;
  /** What the alert is about and its numbers: its words in the reader's language (issue 34). */
  kind: AlertRowKind;
  before: AlertNumbers | null;
  after: AlertNumbers;
  watchlistId: number;
  createdAt: Date;
}

/** Alerts of `watchlistIds` created in (since, until], newest first, at most `limit`. */
export async function selectAlertsBetween(
  db: Database,
  watchlistIds: number[],
  since: Date,
  until: Date,
  limit: number,
): Promise<DigestAlert[]> {
  if (watchlistIds.length === 0) return [];
  return db
    .select({
      iso: alerts.iso,
      country: alerts.country,
      message: alerts.message,
      kind: alerts.kind,
      before: alerts.before,
      after: alerts.after,
      watchlistId: alerts.watchlistId,
      createdAt: alerts.createdAt,
    })
    .from(alerts)
    .where(
      and(
        inArray(alerts.watchlistId, watchlistIds),
        gt(alerts.createdAt, since),
        lte(alerts.createdAt, until),
      ),
    )
    .orderBy(desc(alerts.id))
    .limit(limit);
}

/** Whether the person's digest of `day` exists (built before, by this process or another). */
export async function digestExists(db: Database, subject: string, day: string): Promise<boolean> {
  const [row] = await db
    .select({ id: digestDeliveries.id })
    .from(digestDeliveries)
    .where(and(eq(digestDeliveries.subject, subject), eq(digestDeliveries.day, day)));
  return row !== undefined;
}

/** Queues a digest; the (subject, day) key drops a second one. True when this one was queued. */
export async function insertDigest(
  db: Database,
  values: typeof digestDeliveries.$inferInsert,
): Promise<boolean> {
  const rows = await db
    .insert(digestDeliveries)
    .values(values)
    .onConflictDoNothing()
    .returning({ id: digestDeliveries.id });
  return rows.length > 0;
}

/**
 * Claims the next due digest for `leaseMs` (null: none), so two processes never send one at
 * once; a claim left by a process that died runs out and the digest is claimed again.
 */
export async function claimDigest(
  db: Database,
  now: Date,
  leaseMs: number,
  fence: SQL | null,
): Promise<DigestRow | null> {
  const unclaimed = or(
    isNull(digestDeliveries.lockedUntil),
    lte(digestDeliveries.lockedUntil, now),
  );
  const [due] = await db
    .select({ id: digestDeliveries.id })
    .from(digestDeliveries)
    .where(
      and(
        eq(digestDeliveries.state, 'pending'),
        lte(digestDeliveries.nextAttemptAt, now),
        unclaimed,
      ),
    )
    .orderBy(asc(digestDeliveries.nextAttemptAt), asc(digestDeliveries.id))
    .limit(1);
  if (!due) return null;
  const [row] = await db
    .update(digestDeliveries)
    .set({ lockedUntil: new Date(now.getTime() + leaseMs) })
    .where(
      and(
        eq(digestDeliveries.id, due.id),
        eq(digestDeliveries.state, 'pending'),
        unclaimed,
        fence ?? undefined,
      ),
    )
    .returning();
  return row ?? null;
}

export async function recordDigestAttempt(
  db: Database,
  digest: DigestRow,
  outcome: { state: DigestRow['state']; error: string | null; nextAttemptAt: Date | null },
): Promise<void> {
  await db
    .update(digestDeliveries)
    .set({
      attempts: digest.attempts + 1,
      state: outcome.state,
      lockedUntil: null,
      lastError: outcome.error,
      nextAttemptAt: outcome.nextAttemptAt ?? digest.nextAttemptAt,
    })
    .where(eq(digestDeliveries.id, digest.id));
}

/** The next time a pending digest falls due (to sleep until then). */
export async function nextDigestAt(db: Database): Promise<Date | null> {
  const [row] = await db
    .select({ at: digestDeliveries.nextAttemptAt })
    .from(digestDeliveries)
    .where(eq(digestDeliveries.state, 'pending'))
    .orderBy(asc(digestDeliveries.nextAttemptAt))
    .limit(1);
  return row?.at ?? null;
}

/** Holds an outbox delivery (quiet hours): due again at `until`, its claim released, no attempt. */
export async function holdDelivery(db: Database, id: number, until: Date): Promise<void> {
  await db
    .update(deliveries)
    .set({ nextAttemptAt: until, lockedUntil: null })
    .where(eq(deliveries.id, id));
}
