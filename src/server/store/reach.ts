import { sql } from 'drizzle-orm';
import { rowsOf, type Database } from './connection.js';

/*
 * Feed tokens and embeds (tables of reach-schema.ts), by the hash of their secret. Both kinds are
 * "credentials for one thing" and share their bookkeeping: a live row is not revoked and not
 * expired; a use is counted in the row itself, so every replica sees one count.
 */

export type ReachTable = 'feed_tokens' | 'embeds';

/** The columns both tables share, as a row of either. */
export interface ReachRow {
  id: number;
  name: string;
  createdAt: number;
  createdBy: string;
  expiresAt: number;
  revokedAt: number | null;
  lastUsedAt: number | null;
  uses: number;
  /** feed_tokens: the feeds, comma-separated. embeds: '' */
  feeds: string;
  /** embeds: what it shows, its subject and the site that may frame it; feed_tokens: '' */
  view: string;
  subject: string;
  origin: string;
}

const optional = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value);

function toRow(row: Record<string, unknown>): ReachRow {
  return {
    id: Number(row.id),
    name: String(row.name),
    createdAt: Number(row.created_at),
    createdBy: String(row.created_by),
    expiresAt: Number(row.expires_at),
    revokedAt: optional(row.revoked_at),
    lastUsedAt: optional(row.last_used_at),
    uses: Number(row.uses ?? 0),
    feeds: String(row.feeds ?? ''),
    view: String(row.view ?? ''),
    subject: String(row.subject ?? ''),
    origin: String(row.origin ?? ''),
  };
}

const SHARED = sql`id, name, created_at, created_by, expires_at, revoked_at, last_used_at, uses`;
const COLUMNS: Record<ReachTable, ReturnType<typeof sql>> = {
  feed_tokens: sql`${SHARED}, feeds`,
  embeds: sql`${SHARED}, view, subject, origin`,
};
const table = (name: ReachTable) => sql.identifier(name);

export async function insertFeedToken(
  db: Database,
  token: { name: string; feeds: string; secretHash: string } & Stamp,
): Promise<ReachRow> {
  return one(
    await db.execute(
      sql`insert into feed_tokens (name, feeds, secret_hash, created_at, created_by, expires_at)
          values (${token.name}, ${token.feeds}, ${token.secretHash}, ${token.createdAt},
                  ${token.createdBy}, ${token.expiresAt})
          returning ${COLUMNS.feed_tokens}`,
    ),
  );
}

export async function insertEmbed(
  db: Database,
  embed: {
    name: string;
    view: string;
    subject: string;
    origin: string;
    secretHash: string;
  } & Stamp,
): Promise<ReachRow> {
  return one(
    await db.execute(
      sql`insert into embeds (name, view, subject, origin, secret_hash, created_at, created_by, expires_at)
          values (${embed.name}, ${embed.view}, ${embed.subject}, ${embed.origin}, ${embed.secretHash},
                  ${embed.createdAt}, ${embed.createdBy}, ${embed.expiresAt})
          returning ${COLUMNS.embeds}`,
    ),
  );
}

interface Stamp {
  createdAt: number;
  createdBy: string;
  expiresAt: number;
}

function one(result: unknown): ReachRow {
  const [row] = rowsOf(result);
  if (!row) throw new Error('insert returned no row');
  return toRow(row);
}

/** Live rows (not revoked, not expired), newest first. */
export async function listLive(db: Database, name: ReachTable, now: number): Promise<ReachRow[]> {
  return rowsOf(
    await db.execute(
      sql`select ${COLUMNS[name]} from ${table(name)}
          where revoked_at is null and expires_at > ${now} order by id desc`,
    ),
  ).map(toRow);
}

export async function countLive(db: Database, name: ReachTable, now: number): Promise<number> {
  const [row] = rowsOf(
    await db.execute(
      sql`select count(*)::int as n from ${table(name)}
          where revoked_at is null and expires_at > ${now}`,
    ),
  );
  return Number(row?.n ?? 0);
}

/** The row revoked (as it was), or null when there was no live row with this id. */
export async function revoke(
  db: Database,
  name: ReachTable,
  id: number,
  now: number,
): Promise<ReachRow | null> {
  const [row] = rowsOf(
    await db.execute(
      sql`update ${table(name)} set revoked_at = ${now}
          where id = ${id} and revoked_at is null and expires_at > ${now}
          returning ${COLUMNS[name]}`,
    ),
  );
  return row ? toRow(row) : null;
}

/**
 * One use of the live row with this secret hash, counted in the same statement that finds it
 * (so a revoked or expired one is never counted); null when no live row has it.
 */
export async function countUse(
  db: Database,
  name: ReachTable,
  secretHash: string,
  now: number,
): Promise<ReachRow | null> {
  const [row] = rowsOf(
    await db.execute(
      sql`update ${table(name)} set uses = uses + 1, last_used_at = ${now}
          where secret_hash = ${secretHash} and revoked_at is null and expires_at > ${now}
          returning ${COLUMNS[name]}`,
    ),
  );
  return row ? toRow(row) : null;
}

/** The row with this secret hash whatever its state (to say why it was refused), or null. */
export async function byHash(
  db: Database,
  name: ReachTable,
  secretHash: string,
): Promise<ReachRow | null> {
  const [row] = rowsOf(
    await db.execute(
      sql`select ${COLUMNS[name]} from ${table(name)} where secret_hash = ${secretHash}`,
    ),
  );
  return row ? toRow(row) : null;
}
