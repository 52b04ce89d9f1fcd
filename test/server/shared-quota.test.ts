import pg from 'pg';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { MissConnections } from '../../src/server/replicas/miss-connections.js';
import { SharedQuota } from '../../src/server/replicas/shared-quota.js';
import { migratedPostgresDatabase } from '../helpers/history-store.js';

/*
 * The shared quota ledger on the test run's real PostgreSQL server, one SharedQuota per
 * "replica", no app around it (a few milliseconds a test, so mutation testing can run it for
 * every mutant of replicas/shared-quota.ts). The outage share alone: outage-share.test.ts.
 */

const quiet = pino({ level: 'silent' });

/** A pool that can be made to fail like a PostgreSQL server that went away. */
class SwitchablePool extends pg.Pool {
  down = false;
  override query(...args: unknown[]): never {
    if (this.down) return Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1')) as never;
    return (super.query as (...a: unknown[]) => never)(...args);
  }
  override connect(...args: unknown[]): never {
    if (this.down) return Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1')) as never;
    return (super.connect as (...a: unknown[]) => never)(...args);
  }
}

describe('the shared quota ledger', () => {
  const pools: pg.Pool[] = [];
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((pool) => pool.end().catch(() => undefined)));
  });

  function ledgerOn(url: string, replicas = 3): { quota: SharedQuota; pool: SwitchablePool } {
    const pool = new SwitchablePool({ connectionString: url, max: 4 });
    pool.on('error', () => {});
    pools.push(pool);
    const quota = new SharedQuota({
      pool,
      connections: new MissConnections(),
      reserve: 10,
      now: Date.now,
      logger: quiet,
      replicasSeen: () => replicas,
      reportStore: () => {},
    });
    return { quota, pool };
  }

  it('grants the key’s 50 requests once among three replicas asking at once, and remembers them after a restart', async () => {
    const url = await migratedPostgresDatabase();
    const replicas = [ledgerOn(url), ledgerOn(url), ledgerOn(url)];
    const grants = await Promise.all(
      Array.from({ length: 120 }, (_, i) => replicas[i % 3]!.quota.acquire('interactive')),
    );
    expect(grants.filter((g) => g.ok)).toHaveLength(50);
    // Every granted request has its own sequence number (headers are tied to requests by it).
    const seqs = grants.flatMap((g) => (g.ok ? [g.seq] : []));
    expect(new Set(seqs).size).toBe(50);

    const restarted = ledgerOn(url);
    const after = await restarted.quota.acquire('interactive');
    expect(after.ok).toBe(false);
    await restarted.quota.refresh();
    expect(restarted.quota.mirror.usedLast60Min()).toBe(50);
  });

  it('keeps the reserve for people across replicas: background work stops 10 short of the limit', async () => {
    const url = await migratedPostgresDatabase();
    const replicas = [ledgerOn(url), ledgerOn(url)];
    const grants = await Promise.all(
      Array.from({ length: 60 }, (_, i) => replicas[i % 2]!.quota.acquire('background')),
    );
    expect(grants.filter((g) => g.ok)).toHaveLength(40);
    expect((await replicas[0]!.quota.acquire('interactive')).ok).toBe(true);
  });

  it('with PostgreSQL down spends at most its share of what was left, and books it when back', async () => {
    const url = await migratedPostgresDatabase();
    const { quota, pool } = ledgerOn(url, 3);
    for (let i = 0; i < 20; i++) expect((await quota.acquire('interactive')).ok).toBe(true);

    pool.down = true;
    let granted = 0;
    for (let i = 0; i < 30; i++) if ((await quota.acquire('interactive')).ok) granted++;
    // (50 − 20) ÷ 3 replicas last seen.
    expect(granted).toBe(10);
    expect(quota.mode()).toBe('fallback');

    pool.down = false;
    await quota.refresh();
    expect(quota.mode()).toBe('shared');
    const other = ledgerOn(url);
    await other.quota.refresh();
    expect(other.quota.mirror.usedLast60Min()).toBe(30);
  });
});
