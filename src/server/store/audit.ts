import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Database } from './connection.js';

/*
 * The audit log (table audit_log in audit-schema.ts). Append-only: this module inserts, reads and
 * prunes by age; there is no update, and no delete but retention's.
 */

export interface AuditRow {
  at: number;
  actorName: string;
  actorEmail: string | null;
  actorSubject: string | null;
  actorVia: string;
  actorRole: string | null;
  address: string | null;
  action: string;
  object: string | null;
  status: number;
  detail: string | null;
  before: unknown;
  after: unknown;
}

export interface StoredAuditRow extends AuditRow {
  id: number;
}

/** What an admin's question may narrow the log to (every field optional). */
export interface AuditFilter {
  /** Part of the name, e-mail or subject (case-insensitive). */
  who?: string;
  /** The action exactly, or a prefix ending in "*". */
  action?: string;
  /** The object exactly, or a prefix ending in "*". */
  object?: string;
  since?: number;
  until?: number;
  /** Keyset: only rows older than this (at, id), the previous page's last. */
  before?: { at: number; id: number };
}

const json = (value: unknown): string | null =>
  value === undefined || value === null ? null : JSON.stringify(value);

export async function insertAudit(db: Database, row: AuditRow): Promise<void> {
  await db.execute(
    sql`insert into audit_log (at, actor_name, actor_email, actor_subject, actor_via, actor_role,
          address, action, object, status, detail, before, after)
        values (${row.at}, ${row.actorName}, ${row.actorEmail}, ${row.actorSubject}, ${row.actorVia},
          ${row.actorRole}, ${row.address}, ${row.action}, ${row.object}, ${row.status},
          ${row.detail}, ${json(row.before)}::jsonb, ${json(row.after)}::jsonb)`,
  );
}

function parsed(value: unknown): unknown {
  return typeof value === 'string' ? (JSON.parse(value) as unknown) : (value ?? null);
}

function toRow(row: Record<string, unknown>): StoredAuditRow {
  const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
  return {
    id: Number(row.id),
    at: Number(row.at),
    actorName: String(row.actor_name),
    actorEmail: text(row.actor_email),
    actorSubject: text(row.actor_subject),
    actorVia: String(row.actor_via),
    actorRole: text(row.actor_role),
    address: text(row.address),
    action: String(row.action),
    object: text(row.object),
    status: Number(row.status),
    detail: text(row.detail),
    before: parsed(row.before),
    after: parsed(row.after),
  };
}

/** `abc*` → a LIKE prefix with its wildcards escaped; anything else matches exactly. */
function exactOrPrefix(column: SQL, value: string): SQL {
  if (!value.endsWith('*')) return sql`${column} = ${value}`;
  const prefix = value.slice(0, -1).replace(/[\\%_]/g, (c) => `\\${c}`);
  return sql`${column} like ${`${prefix}%`}`;
}

/** Newest first, at most `limit` rows matching the filter. */
export async function queryAudit(
  db: Database,
  filter: AuditFilter,
  limit: number,
): Promise<StoredAuditRow[]> {
  const where: SQL[] = [sql`true`];
  if (filter.who !== undefined) {
    const like = `%${filter.who.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(
      sql`(actor_name ilike ${like} or actor_email ilike ${like} or actor_subject ilike ${like})`,
    );
  }
  if (filter.action !== undefined) where.push(exactOrPrefix(sql`action`, filter.action));
  if (filter.object !== undefined) where.push(exactOrPrefix(sql`object`, filter.object));
  if (filter.since !== undefined) where.push(sql`at >= ${filter.since}`);
  if (filter.until !== undefined) where.push(sql`at < ${filter.until}`);
  if (filter.before !== undefined) {
    where.push(sql`(at, id) < (${filter.before.at}, ${filter.before.id})`);
  }
  return rowsOf(
    await db.execute(
      sql`select id, at, actor_name, actor_email, actor_subject, actor_via, actor_role, address,
            action, object, status, detail, before, after
          from audit_log where ${sql.join(where, sql` and `)}
          order by at desc, id desc limit ${limit}`,
    ),
  ).map(toRow);
}

/**
 * Deletes rows older than `cutoff`, at most `chunk` of them (the oldest), so one prune never
 * holds the table long; returns how many went.
 */
export async function pruneAudit(db: Database, cutoff: number, chunk: number): Promise<number> {
  return rowsOf(
    await db.execute(
      sql`delete from audit_log where id in
            (select id from audit_log where at < ${cutoff} order by at, id limit ${chunk})
          returning id`,
    ),
  ).length;
}
