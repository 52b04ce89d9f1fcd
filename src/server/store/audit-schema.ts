import { bigint, bigserial, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';

/*
 * The audit log (issue 21): one row per write, appended and never changed. Only store/audit.ts
 * writes it, and it has no update: rows leave only by retention (AUDIT_RETENTION_DAYS). Times
 * are epoch milliseconds of the application's clock, as in identity-schema.ts.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: bigint('at', { mode: 'number' }).notNull(),
    /** Who: a person's name, an API token's name, "Dashboard token", a proxy's user. */
    actorName: text('actor_name').notNull(),
    actorEmail: text('actor_email'),
    actorSubject: text('actor_subject'),
    /** How they got in: oidc, proxy, dashboard-token, api-token, open. */
    actorVia: text('actor_via').notNull(),
    actorRole: text('actor_role'),
    /** The client's address (the one a trusted proxy forwards). */
    address: text('address'),
    /** What was done: "watchlist changed", "sign-in failed", or the route ("POST /api/x"). */
    action: text('action').notNull(),
    /** What it was done to, as a path ("/api/watchlists/12") or a name. */
    object: text('object'),
    /** The HTTP status the write was answered with (303 for a sign-in, 400 for a failed one). */
    status: integer('status').notNull(),
    /** Why it was refused, in the words the person saw; null when it was done. */
    detail: text('detail'),
    /** The object before and after, as JSON without secrets (services/identity/audit-redact.ts). */
    before: jsonb('before'),
    after: jsonb('after'),
  },
  (t) => [
    index('audit_log_at').on(t.at, t.id),
    index('audit_log_action_at').on(t.action, t.at),
    index('audit_log_object_at').on(t.object, t.at),
    index('audit_log_actor_at').on(t.actorName, t.at),
  ],
);
