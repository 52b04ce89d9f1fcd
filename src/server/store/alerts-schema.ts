import {
  bigint,
  bigserial,
  char,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type {
  AlertNumbers,
  AlertRowKind,
  AlertRule,
  WebhookFormat,
} from '../../shared/alerts-api.js';
import type { Language } from '../../shared/i18n/languages.js';
import { at, batches } from './schema.js';

/*
 * Watchlists, alerts and their delivery (issue 8). Generated into migrations with the history
 * tables (drizzle.config.ts lists this file beside schema.ts).
 */

export const watchlists = pgTable(
  'watchlists',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    name: text('name').notNull(),
    countries: jsonb('countries').$type<string[]>().notNull(),
    rules: jsonb('rules').$type<AlertRule[]>().notNull(),
    /** Null: a team list. Else the SSO user (TRUSTED_PROXY_AUTH_HEADER) who owns it. */
    owner: text('owner'),
    webhookUrl: text('webhook_url'),
    webhookFormat: text('webhook_format').$type<WebhookFormat>().notNull().default('standard'),
    /** The language of the list's e-mails and webhook texts (issue 34): en, fr, es or ar. */
    language: text('language').$type<Language>().notNull().default('en'),
    /** `whsec_<base64>`; returned once at creation, never again. */
    webhookSecret: text('webhook_secret'),
    webhookPausedAt: at('webhook_paused_at'),
    webhookPausedReason: text('webhook_paused_reason'),
    email: text('email'),
    /** The demo's sample list (one at most). */
    demo: text('demo'),
    version: integer('version').notNull().default(1),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [index('watchlists_owner').on(t.owner), uniqueIndex('watchlists_demo_key').on(t.demo)],
);

/**
 * Batches whose alerts are being or were evaluated: "once per new batch", across restarts and
 * processes. Lists are evaluated in chunks by ascending id; `pendingAfter` is the cursor.
 */
export const alertEvaluations = pgTable('alert_evaluations', {
  batchId: bigint('batch_id', { mode: 'number' })
    .primaryKey()
    .references(() => batches.id, { onDelete: 'cascade' }),
  evaluatedAt: at('evaluated_at').notNull().defaultNow(),
  alerts: integer('alerts').notNull(),
  /** Lists with a larger id are still to be evaluated; null once every list was. */
  pendingAfter: bigint('pending_after', { mode: 'number' }),
  /** Passes that failed outside any one list; at the limit the batch is given up. */
  attempts: integer('attempts').notNull().default(0),
});

/** A list whose evaluation of a batch failed: skipped (the others went on) and noted here. */
export const alertListFailures = pgTable(
  'alert_list_failures',
  {
    batchId: bigint('batch_id', { mode: 'number' })
      .notNull()
      .references(() => batches.id, { onDelete: 'cascade' }),
    watchlistId: bigint('watchlist_id', { mode: 'number' })
      .notNull()
      .references(() => watchlists.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    at: at('at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.batchId, t.watchlistId] })],
);

export const alerts = pgTable(
  'alerts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    watchlistId: bigint('watchlist_id', { mode: 'number' })
      .notNull()
      .references(() => watchlists.id, { onDelete: 'cascade' }),
    ruleKey: text('rule_key').notNull(),
    kind: text('kind').$type<AlertRowKind>().notNull(),
    iso: char('iso', { length: 3 }).notNull(),
    country: text('country').notNull(),
    batchAsOf: at('batch_as_of').notNull(),
    message: text('message').notNull(),
    before: jsonb('before').$type<AlertNumbers | null>(),
    after: jsonb('after').$type<AlertNumbers>().notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    readAt: at('read_at'),
  },
  (t) => [
    // At most one alert per (rule, country, batch) of a list, whatever runs the evaluation.
    uniqueIndex('alerts_once_key').on(t.watchlistId, t.ruleKey, t.iso, t.batchAsOf),
    index('alerts_watchlist_created').on(t.watchlistId, t.id.desc()),
  ],
);

/**
 * The durable outbox: one row per message to send (a webhook POST, or one e-mail digest of a
 * batch and list). `messageId` is the `webhook-id`, the same on every retry.
 */
export const deliveries = pgTable(
  'deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    messageId: text('message_id').notNull(),
    watchlistId: bigint('watchlist_id', { mode: 'number' })
      .notNull()
      .references(() => watchlists.id, { onDelete: 'cascade' }),
    /** `webhook` or `email`. */
    channel: text('channel').$type<'webhook' | 'email'>().notNull(),
    /** The JSON body to POST, or the e-mail as `{subject, text, html}`. */
    body: text('body').notNull(),
    /** pending | delivered | failed (no retry left or not retryable) */
    state: text('state').$type<'pending' | 'delivered' | 'failed'>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: at('next_attempt_at').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    /** While a process sends it: others leave it alone until this passes (crash recovery). */
    lockedUntil: at('locked_until'),
    lastError: text('last_error'),
  },
  (t) => [
    uniqueIndex('deliveries_message_key').on(t.messageId),
    index('deliveries_due').on(t.state, t.nextAttemptAt),
  ],
);

/** Every attempt: the delivery log shown per endpoint. */
export const deliveryAttempts = pgTable(
  'delivery_attempts',
  {
    deliveryId: bigint('delivery_id', { mode: 'number' })
      .notNull()
      .references(() => deliveries.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    at: at('at').notNull(),
    /** HTTP status, or null for a network error / timeout / refused address. */
    status: integer('status'),
    durationMs: integer('duration_ms').notNull(),
    error: text('error'),
  },
  (t) => [primaryKey({ columns: [t.deliveryId, t.attempt] })],
);

export const alertSchema = {
  watchlists,
  alertEvaluations,
  alertListFailures,
  alerts,
  deliveries,
  deliveryAttempts,
};
