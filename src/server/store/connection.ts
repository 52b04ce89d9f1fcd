import { resolve } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { readMigrationFiles, type MigrationMeta } from 'drizzle-orm/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { Secret } from '../secret.js';
import { makeFolder } from '../make-folder.js';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.js';
import { migrationsFolder } from './migrations-folder.js';
import { causesOf } from './error-causes.js';
import { createPglite } from './pglite.js';
import { schema } from './schema.js';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Connection {
  db: Database;
  /** `pglite` (embedded) or `postgres` (DATABASE_URL); for status and logs. */
  kind: 'pglite' | 'postgres';
  /** The PostgreSQL pool (replicas hold advisory locks on its connections); null for PGlite. */
  pool: pg.Pool | null;
  close(): Promise<void>;
}

export interface ConnectionOptions {
  /** PGlite's data directory is `<dataDir>/history`; null keeps it in memory (tests). */
  dataDir: string | null;
  /** PostgreSQL instead of PGlite. A Secret: the URL usually holds a password. */
  databaseUrl: Secret | null;
  /** Connections in the PostgreSQL pool (DATABASE_POOL_MAX). */
  poolMax?: number;
  /**
   * Test seam: an in-memory store starts from this PGlite data directory (a `dumpDataDir`
   * tarball of a migrated store) instead of running initdb, which costs seconds of CPU each.
   */
  pgliteTemplate?: Blob;
}

/** A store written by a newer version of the code: refuse to start rather than guess. */
export class StoreTooNewError extends Error {
  override name = 'StoreTooNewError';
}

// Any fixed number shared by every process of this product; taken around the migrations.
const MIGRATION_LOCK = 7_190_424_001;
const MIGRATIONS_TABLE = sql.raw('"drizzle"."__drizzle_migrations"');

/**
 * Opens the store and brings its schema up to date: PGlite under DATA_DIR by default, PostgreSQL
 * when DATABASE_URL is set, the same migrations for both.
 */
export async function openConnection(options: ConnectionOptions): Promise<Connection> {
  const folder = migrationsFolder();
  const known = readMigrationFiles({ migrationsFolder: folder });
  if (options.databaseUrl) {
    return openPostgres(options.databaseUrl, options.poolMax ?? 10, folder, known);
  }

  let client: PGlite;
  // PGlite does not refuse a second process on its directory (both would corrupt it): ours does.
  let lock: DataDirLock | null = null;
  if (options.dataDir) {
    const dir = resolve(options.dataDir, 'history');
    makeFolder(dir);
    lock = acquireDataDirLock(dir);
    try {
      client = await createPglite(dir);
    } catch (error) {
      lock.release();
      throw error;
    }
  } else {
    client = await createPglite(null, options.pgliteTemplate);
  }
  const close = async (): Promise<void> => {
    try {
      await client.close();
    } finally {
      lock?.release();
    }
  };
  try {
    const db = drizzlePglite({ client, schema });
    await refuseNewerStore(db, known, options.dataDir ?? 'memory');
    await migratePglite(db, { migrationsFolder: folder });
    return { db: db as unknown as Database, kind: 'pglite', pool: null, close };
  } catch (error) {
    await close();
    throw error;
  }
}

// With PostgreSQL down, a query fails within seconds instead of hanging: the replicas keep
// serving from memory and say so, rather than holding requests on a dead connection.
const CONNECT_TIMEOUT_MS = 3_000;
const QUERY_TIMEOUT_MS = 30_000;

async function openPostgres(
  url: Secret,
  poolMax: number,
  folder: string,
  known: MigrationMeta[],
): Promise<Connection> {
  // Migrations on one dedicated connection holding a session advisory lock: a second process
  // starting at the same moment waits, then finds nothing left to apply.
  const admin = new pg.Client({ connectionString: url.reveal() });
  // As with the pool's connections below: the server may end this one during start-up (a
  // restart, pg_terminate_backend) while no query of it runs, and pg then emits an 'error' that,
  // unheard, ends the process with a stack trace. Heard, the next query fails and start-up
  // fails in words.
  admin.on('error', () => {});
  await admin.connect();
  try {
    await admin.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const db = drizzlePg({ client: admin, schema });
    await refuseNewerStore(db, known, 'the PostgreSQL database of DATABASE_URL');
    await migratePg(db, { migrationsFolder: folder });
    await admin.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]);
  } finally {
    await admin.end();
  }
  const pool = new pg.Pool({
    connectionString: url.reveal(),
    max: poolMax,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    query_timeout: QUERY_TIMEOUT_MS,
  });
  // An idle client's error (server restart) must not crash the process; the next query retries.
  pool.on('error', () => {});
  // pg-pool takes that listener off a connection while it is out. One held between two queries
  // (the answer lock across an upstream fetch, a transaction) that the server ends (a restart or
  // shutdown: 57P01) would emit an 'error' nobody hears, which ends the process (seen: a
  // replica's leader died in the PostgreSQL-outage test). So each connection listens for its
  // whole life: its next query fails in words, and the pool drops it at release (not queryable).
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = drizzlePg({ client: pool, schema });
  return { db: db as unknown as Database, kind: 'postgres', pool, close: () => pool.end() };
}

async function refuseNewerStore(
  db: { execute: Database['execute'] },
  known: MigrationMeta[],
  where: string,
): Promise<void> {
  const exists = rowsOf(
    await db.execute(sql`select to_regclass('drizzle.__drizzle_migrations')::text as t`),
  );
  if (!exists[0]?.t) return;
  const applied = rowsOf(await db.execute(sql`select created_at from ${MIGRATIONS_TABLE}`));
  const knownTimes = new Set(known.map((m) => m.folderMillis));
  const unknown = applied.filter((row) => !knownTimes.has(Number(row.created_at)));
  if (unknown.length > 0) {
    throw new StoreTooNewError(
      `The history store in ${where} has ${unknown.length} migration(s) this version does not know: ` +
        'it was written by a newer version of the dashboard. Run that version, or point ' +
        'DATA_DIR / DATABASE_URL at another store.',
    );
  }
}

/** Both drivers answer `execute` with `{ rows }` (pg's QueryResult, PGlite's Results). */
export function rowsOf(result: unknown): Record<string, unknown>[] {
  return (result as { rows: Record<string, unknown>[] }).rows;
}

/** Error codes of a PostgreSQL server that cannot be reached or is going away. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EPIPE',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);
// "not queryable": pg's answer on a connection the server has already ended (a restart while the
// connection was held between queries: held-connection.test.ts), which has no code of its own.
const UNREACHABLE_TEXT =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|Cannot use a pool after calling end|connection error and is not queryable/i;

/**
 * True when `error` (or what it wraps: drizzle wraps the driver's errors) says the database
 * could not be reached, rather than that a query was wrong.
 */
export function isStoreUnreachable(error: unknown): boolean {
  for (const { code, message } of causesOf(error)) {
    if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) return true;
    if (typeof message === 'string' && UNREACHABLE_TEXT.test(message)) return true;
  }
  return false;
}

/**
 * True when the wait was for one of this process's own pooled connections, all in use: the
 * server is up (isStoreUnreachable says yes to it too, as the store could not answer in time).
 * pg-pool says this only of a wait in its queue; a new connection to a server that does not
 * answer fails as "Connection terminated due to connection timeout".
 */
export function isPoolBusy(error: unknown): boolean {
  for (const { message } of causesOf(error)) {
    if (typeof message === 'string' && /timeout exceeded when trying to connect/i.test(message)) {
      return true;
    }
  }
  return false;
}
