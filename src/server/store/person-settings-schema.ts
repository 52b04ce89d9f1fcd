import {
  bigserial,
  boolean,
  index,
  integer,
  pgTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { at } from './schema.js';

/*
 * Each person's delivery settings and their daily digests (issue 21). drizzle.config.ts lists
 * this file.
 */

export const personSettings = pgTable('person_settings', {
  /** The person (`oidc:<sub>`, the proxy's user). */
  subject: text('subject').primaryKey(),
  /** Where their e-mail goes: taken from the sign-in when they save (the leader has no request). */
  email: text('email'),
  emailEnabled: boolean('email_enabled').notNull(),
  /** Local hour (0–23) of the daily digest in `timeZone`; null: no digest. */
  digestHour: integer('digest_hour'),
  /** IANA name, checked against the runtime's zone database when saved. */
  timeZone: text('time_zone').notNull(),
  /** Quiet hours as minutes after local midnight; both null: none. */
  quietStart: integer('quiet_start'),
  quietEnd: integer('quiet_end'),
  /** The interface's language (`en`, `fr`, `es`, `ar`; issue 34); null: the browser's. */
  language: text('language'),
  version: integer('version').notNull(),
  updatedAt: at('updated_at').notNull(),
});

/**
 * The daily digests' own outbox: at most one per person and local day (unique key), sent once
 * (claimed under a lease, the same message id on every retry).
 */
export const digestDeliveries = pgTable(
  'digest_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    subject: text('subject').notNull(),
    /** The person's local date, `YYYY-MM-DD`. */
    day: text('day').notNull(),
    messageId: text('message_id').notNull(),
    /** `{to, subject, text, html}` as JSON, built once. */
    body: text('body').notNull(),
    state: text('state').$type<'pending' | 'delivered' | 'failed'>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: at('next_attempt_at').notNull(),
    lockedUntil: at('locked_until'),
    lastError: text('last_error'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    // One digest per person and local day, whichever process or pass builds it.
    uniqueIndex('digest_deliveries_once').on(t.subject, t.day),
    uniqueIndex('digest_deliveries_message').on(t.messageId),
    index('digest_deliveries_due').on(t.state, t.nextAttemptAt),
  ],
);

export const personSettingsSchema = { personSettings, digestDeliveries };
