import type { FastifyBaseLogger } from 'fastify';
import type { AuditLog } from '../services/identity/audit.js';
import { overrideView, type Overrides } from '../services/team-index/overrides.js';
import type { Database } from '../store/connection.js';
import { endOverride, nextOverrideExpiry, selectExpiredOverrides } from '../store/team-index.js';
import { noticeOverrideExpired } from '../services/team-index/override-notices.js';
import { JobLoop } from './job-loop.js';
import type { Scheduler } from './scheduler.js';

/** Overrides ended in one run; more wait for the next run, at once. */
const CHUNK = 100;
/** Looked again at least this often: another replica may have set one that expires sooner. */
const LOOK_EVERY_MS = 60_000;

/**
 * Ends overrides at their expiry, by themselves (issue 31): a job on the one job loop that wakes
 * at the next expiry (or every minute, for overrides other processes set). Each end is a
 * compare-and-set on the row in force, so when several processes run it one ends it and only
 * that one writes the audit entry.
 */
export function overrideExpiryJob(parts: {
  db: Database;
  overrides: Overrides;
  audit: AuditLog | null;
  now: () => number;
  scheduler: Scheduler;
  logger: FastifyBaseLogger;
}): JobLoop {
  const { db, now } = parts;
  return new JobLoop({
    name: 'override expiry',
    logger: parts.logger,
    scheduler: parts.scheduler,
    now,
    run: async (): Promise<number | null> => {
      const due = await selectExpiredOverrides(db, new Date(now()), CHUNK);
      for (const row of due) {
        const ended = await endOverride(db, row.iso, row.version, row.expiresAt, 'expired');
        if (!ended) continue;
        // Only the process whose compare-and-set ended it tells the lists (and audits it).
        await noticeOverrideExpired(db, row, new Date(now()));
        await parts.audit?.record({
          actor: null,
          address: null,
          action: 'override expired',
          object: `/api/overrides/${row.iso}`,
          status: 200,
          detail: `The override of ${row.iso} (${row.tier}) ended at its expiry`,
          before: overrideView(row),
          after: null,
        });
      }
      if (due.length > 0) parts.overrides.forget();
      if (due.length === CHUNK) return now();
      const next = await nextOverrideExpiry(db);
      const look = now() + LOOK_EVERY_MS;
      return next === null ? look : Math.min(look, next.getTime());
    },
  });
}
