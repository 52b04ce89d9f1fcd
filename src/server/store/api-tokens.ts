import { sql } from 'drizzle-orm';
import { rowsOf, type Database } from './connection.js';

/* API tokens (table api_tokens in identity-schema.ts), by the hash of their secret. */

export interface ApiTokenRow {
  id: number;
  name: string;
  role: string;
  createdAt: number;
  createdBy: string;
  expiresAt: number;
  revokedAt: number | null;
  lastUsedAt: number | null;
}

function toRow(row: Record<string, unknown>): ApiTokenRow {
  const optional = (value: unknown): number | null =>
    value === null || value === undefined ? null : Number(value);
  return {
    id: Number(row.id),
    name: String(row.name),
    role: String(row.role),
    createdAt: Number(row.created_at),
    createdBy: String(row.created_by),
    expiresAt: Number(row.expires_at),
    revokedAt: optional(row.revoked_at),
    lastUsedAt: optional(row.last_used_at),
  };
}

const COLUMNS = sql`id, name, role, created_at, created_by, expires_at, revoked_at, last_used_at`;

export async function insertApiToken(
  db: Database,
  token: {
    name: string;
    role: string;
    secretHash: string;
    createdAt: number;
    createdBy: string;
    expiresAt: number;
  },
): Promise<ApiTokenRow> {
  const [row] = rowsOf(
    await db.execute(
      sql`insert into api_tokens (name, role, secret_hash, created_at, created_by, expires_at)
          values (${token.name}, ${token.role}, ${token.secretHash}, ${token.createdAt}, ${token.createdBy}, ${token.expiresAt})
          returning ${COLUMNS}`,
    ),
  );
  if (!row) throw new Error('insert returned no row');
  return toRow(row);
}

/** The live token with this secret hash (not revoked, not expired), or null. */
export async function liveApiToken(
  db: Database,
  secretHash: string,
  now: number,
): Promise<ApiTokenRow | null> {
  const [row] = rowsOf(
    await db.execute(
      sql`select ${COLUMNS} from api_tokens
          where secret_hash = ${secretHash} and revoked_at is null and expires_at > ${now}`,
    ),
  );
  return row ? toRow(row) : null;
}

export async function markApiTokenUsed(db: Database, id: number, now: number): Promise<void> {
  await db.execute(sql`update api_tokens set last_used_at = ${now} where id = ${id}`);
}

/** Tokens not revoked and not expired, newest first. */
export async function listApiTokens(db: Database, now: number): Promise<ApiTokenRow[]> {
  return rowsOf(
    await db.execute(
      sql`select ${COLUMNS} from api_tokens where revoked_at is null and expires_at > ${now}
          order by id desc`,
    ),
  ).map(toRow);
}

export async function countLiveApiTokens(db: Database, now: number): Promise<number> {
  const [row] = rowsOf(
    await db.execute(
      sql`select count(*)::int as n from api_tokens where revoked_at is null and expires_at > ${now}`,
    ),
  );
  return Number(row?.n ?? 0);
}

/** True when a live token was revoked. */
export async function revokeApiToken(db: Database, id: number, now: number): Promise<boolean> {
  return (
    rowsOf(
      await db.execute(
        sql`update api_tokens set revoked_at = ${now} where id = ${id} and revoked_at is null returning id`,
      ),
    ).length > 0
  );
}
