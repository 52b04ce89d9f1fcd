import { sql } from 'drizzle-orm';
import { rowsOf, type Database } from './connection.js';

/* Sign-in sessions, by the hash of their id (table sessions in replicas-schema.ts). */

export interface SessionRow {
  idHash: string;
  expiresAt: number;
  principal: Record<string, unknown> | null;
  createdAt: number | null;
  lastSeen: number | null;
  idleMs: number | null;
  idToken: string | null;
  address: string | null;
  /** Sealed by the sign-in (the store never sees the provider's tokens in the clear). */
  providerGrant: string | null;
  roleCheckedAt: number | null;
}

/** Sessions an admin's list shows at most (the newest first). */
const LISTED_MAX = 500;

export async function insertSession(db: Database, row: SessionRow): Promise<void> {
  await db.execute(
    sql`insert into sessions (id_hash, expires_at, principal, created_at, last_seen, idle_ms, id_token, address,
                              provider_grant, role_checked_at)
        values (${row.idHash}, ${row.expiresAt}, ${row.principal === null ? null : JSON.stringify(row.principal)}::jsonb,
                ${row.createdAt}, ${row.lastSeen}, ${row.idleMs}, ${row.idToken}, ${row.address},
                ${row.providerGrant}, ${row.roleCheckedAt})
        on conflict (id_hash) do nothing`,
  );
}

function toRow(row: Record<string, unknown>): SessionRow {
  const number = (value: unknown): number | null =>
    value === null || value === undefined ? null : Number(value);
  const principal =
    typeof row.principal === 'string'
      ? (JSON.parse(row.principal) as Record<string, unknown>)
      : row.principal;
  return {
    idHash: String(row.id_hash),
    expiresAt: Number(row.expires_at),
    principal: (principal as Record<string, unknown> | null | undefined) ?? null,
    createdAt: number(row.created_at),
    lastSeen: number(row.last_seen),
    idleMs: number(row.idle_ms),
    idToken: typeof row.id_token === 'string' ? row.id_token : null,
    address: typeof row.address === 'string' ? row.address : null,
    providerGrant: typeof row.provider_grant === 'string' ? row.provider_grant : null,
    roleCheckedAt: number(row.role_checked_at),
  };
}

export async function findSession(db: Database, idHash: string): Promise<SessionRow | null> {
  const [row] = rowsOf(
    await db.execute(
      sql`select id_hash, expires_at, principal, created_at, last_seen, idle_ms, id_token, address,
                 provider_grant, role_checked_at
          from sessions where id_hash = ${idHash}`,
    ),
  );
  return row ? toRow(row) : null;
}

export async function touchSession(db: Database, idHash: string, lastSeen: number): Promise<void> {
  await db.execute(sql`update sessions set last_seen = ${lastSeen} where id_hash = ${idHash}`);
}

/** Sessions that have not reached their absolute end, newest first, bounded. */
export async function listSessions(db: Database, now: number): Promise<SessionRow[]> {
  return rowsOf(
    await db.execute(
      sql`select id_hash, expires_at, principal, created_at, last_seen, idle_ms, null as id_token,
                 address, null as provider_grant, role_checked_at
          from sessions where expires_at > ${now}
          order by created_at desc nulls last limit ${LISTED_MAX}`,
    ),
  ).map(toRow);
}

/**
 * Takes a due re-check of the session's role: true for exactly one caller whose `seen` time is
 * still the row's (the compare-and-set keeps two replicas from spending one refresh token twice).
 */
export async function claimRoleCheck(
  db: Database,
  idHash: string,
  seen: number,
  now: number,
): Promise<boolean> {
  const rows = rowsOf(
    await db.execute(
      sql`update sessions set role_checked_at = ${now}
          where id_hash = ${idHash} and coalesce(role_checked_at, created_at, 0) = ${seen}
          returning id_hash`,
    ),
  );
  return rows.length > 0;
}

/** What a re-check found: the person now, and the provider's (sealed) tokens. */
export async function updateSessionIdentity(
  db: Database,
  idHash: string,
  principal: Record<string, unknown>,
  providerGrant: string | null,
): Promise<void> {
  await db.execute(
    sql`update sessions set principal = ${JSON.stringify(principal)}::jsonb,
                            provider_grant = ${providerGrant}
        where id_hash = ${idHash}`,
  );
}

/** True when a session was there to delete. */
export async function deleteSession(db: Database, idHash: string): Promise<boolean> {
  const rows = rowsOf(
    await db.execute(sql`delete from sessions where id_hash = ${idHash} returning id_hash`),
  );
  return rows.length > 0;
}

/** Ended sessions go (at most a bounded batch per call, so a prune never holds the table long). */
export async function pruneSessions(db: Database, now: number): Promise<void> {
  await db.execute(
    sql`delete from sessions where id_hash in (select id_hash from sessions where expires_at <= ${now} limit 1000)`,
  );
}
