import { bigint, bigserial, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { at } from './schema.js';

/*
 * What replicas sharing one PostgreSQL coordinate through (issue 9). The tables exist in the
 * embedded store too (one set of migrations), where a single process uses none of them.
 *
 * Times that count the upstream's budget (sends, answers) are the application's clock in epoch
 * milliseconds, as the quota governor keeps them; lease expiry and heartbeats use the database's
 * own clock, so replicas whose clocks drift still agree on who leads.
 */

/**
 * The key's quota ledger: one row holding the quota governor's state (sends in the last two
 * hours, the last rate-limit header, a 429's wait). Read and written under `FOR UPDATE`, so a
 * grant is atomic across replicas.
 */
export const quotaLedger = pgTable('quota_ledger', {
  id: integer('id').primaryKey(),
  state: jsonb('state').$type<Record<string, unknown>>().notNull(),
});

/** Upstream answers any replica fetched: the second level of every replica's memory cache. */
export const upstreamAnswers = pgTable(
  'upstream_answers',
  {
    key: text('key').primaryKey(),
    fetchedAt: bigint('fetched_at', { mode: 'number' }).notNull(),
    asOf: bigint('as_of', { mode: 'number' }),
    asOfText: text('as_of_text'),
    methodologyVersion: text('methodology_version'),
    size: integer('size').notNull(),
    /** The cached value as JSON text (parsed and checked again by the replica that adopts it). */
    value: text('value').notNull(),
  },
  (t) => [index('upstream_answers_fetched_at').on(t.fetchedAt)],
);

/** Cache misses per client (the per-client limits of issue 10, held for every replica at once). */
export const clientMisses = pgTable(
  'client_misses',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    client: text('client').notNull(),
    at: bigint('at', { mode: 'number' }).notNull(),
  },
  (t) => [index('client_misses_client_at').on(t.client, t.at)],
);

/** The leader lease: who runs the batch watch, alert evaluation and delivery. */
export const leaderLease = pgTable('leader_lease', {
  name: text('name').primaryKey(),
  /** `<REPLICA_NAME>#<random>`: unique per process, so a restarted replica is a new holder. */
  holder: text('holder').notNull(),
  /** Raised each time the lease changes hands: work fenced by it stops when it moves on. */
  fence: bigint('fence', { mode: 'number' }).notNull(),
  expiresAt: at('expires_at').notNull(),
});

/** Heartbeats: how many replicas there are (the PostgreSQL-down budget share divides by it). */
export const replicas = pgTable('replicas', {
  holder: text('holder').primaryKey(),
  name: text('name').notNull(),
  lastSeen: at('last_seen').notNull(),
});

/**
 * Signed-in browsers (DASHBOARD_TOKEN), so a session opened on one replica is valid on all. Only
 * a hash of the session id is kept: the table's contents cannot be replayed as cookies.
 */
export const sessions = pgTable('sessions', {
  idHash: text('id_hash').primaryKey(),
  /** The absolute end (epoch ms): no activity keeps a session past it. */
  expiresAt: bigint('expires_at', { mode: 'number' }).notNull(),
  /**
   * Who signed in (issue 21): name, e-mail, subject, role, how (JSON). Rows from before it are
   * dashboard-token sign-ins.
   */
  principal: jsonb('principal').$type<Record<string, unknown>>(),
  createdAt: bigint('created_at', { mode: 'number' }),
  /** Last request seen (epoch ms, written at most once a minute); idle expiry counts from it. */
  lastSeen: bigint('last_seen', { mode: 'number' }),
  idleMs: bigint('idle_ms', { mode: 'number' }),
  /** The provider's ID token, sent back as id_token_hint when signing out there; never shown. */
  idToken: text('id_token'),
  /** The address the session was opened from (an admin's list of sessions shows it). */
  address: text('address'),
  /**
   * The provider's tokens and the person's ID-token claims, sealed (AES-GCM, a key derived from
   * the client secret: services/identity/oidc-keys.ts), so the role can be asked for again.
   */
  providerGrant: text('provider_grant'),
  /** When the role was last asked of the provider (epoch ms); null: at sign-in (created_at). */
  roleCheckedAt: bigint('role_checked_at', { mode: 'number' }),
});
