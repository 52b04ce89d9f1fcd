import { sql } from 'drizzle-orm';
import { rowsOf, type Database } from './connection.js';

/*
 * Replica membership (heartbeats in table replicas) and the leader lease (leader_lease) that
 * decides which replica runs the jobs; tables in replicas-schema.ts.
 */
const LEASE = 'jobs';

export async function heartbeat(db: Database, holder: string, name: string): Promise<void> {
  await db.execute(
    sql`insert into replicas (holder, name, last_seen) values (${holder}, ${name}, now())
        on conflict (holder) do update set last_seen = now()`,
  );
}

export async function leaveReplicas(db: Database, holder: string): Promise<void> {
  await db.execute(sql`delete from replicas where holder = ${holder}`);
  await db.execute(
    sql`update leader_lease set expires_at = now() where name = ${LEASE} and holder = ${holder}`,
  );
}

export async function countReplicas(db: Database, withinSeconds: number): Promise<number> {
  const [row] = rowsOf(
    await db.execute(
      sql`select count(*)::int as n from replicas
          where last_seen > now() - make_interval(secs => ${withinSeconds})`,
    ),
  );
  return Number(row?.n ?? 0);
}

export interface Lease {
  holder: string;
  name: string | null;
  fence: number;
  mine: boolean;
}

/**
 * Takes or renews the lease: it changes hands only when it has run out, and each change raises
 * the fence. Returns who holds it now.
 */
export async function claimLease(db: Database, holder: string, ttlSeconds: number): Promise<Lease> {
  await db.execute(
    sql`insert into leader_lease (name, holder, fence, expires_at)
        values (${LEASE}, ${holder}, 1, now() + make_interval(secs => ${ttlSeconds}))
        on conflict (name) do update set
          holder = excluded.holder,
          fence = case when leader_lease.holder = excluded.holder
                        and leader_lease.expires_at > now()
                   then leader_lease.fence else leader_lease.fence + 1 end,
          expires_at = excluded.expires_at
        where leader_lease.holder = excluded.holder or leader_lease.expires_at <= now()`,
  );
  const [row] = rowsOf(
    await db.execute(
      sql`select l.holder, l.fence, r.name from leader_lease l
          left join replicas r on r.holder = l.holder where l.name = ${LEASE}`,
    ),
  );
  const current = String(row?.holder ?? '');
  return {
    holder: current,
    name: (row?.name as string | null) ?? null,
    fence: Number(row?.fence ?? 0),
    mine: current === holder,
  };
}

/** The SQL condition "this holder still leads with this fence" (fences outbox claims). */
export function holdsLease(holder: string, fence: number) {
  return sql`exists (select 1 from leader_lease where name = ${LEASE} and holder = ${holder}
             and fence = ${fence} and expires_at > now())`;
}
