import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { CountrySummary } from '../../src/shared/bff-api.js';
import { METHODOLOGY_VERSION } from '../../src/demo-upstream/vocabulary.js';
import { Secret } from '../../src/server/secret.js';
import { selectUnevaluatedBatches } from '../../src/server/store/alerts.js';
import { rowsOf } from '../../src/server/store/connection.js';
import { HistoryStore } from '../../src/server/store/history-store.js';
import { freshPostgresDatabase } from '../helpers/history-store.js';
import { startHistoryStack } from '../helpers/history-stack.js';
import { insertList, recordSynthetic } from '../helpers/synthetic-batches.js';

/*
 * Start-up never waits on alert evaluation (issue 18): a batch left unevaluated by the last run
 * used to be evaluated while the app was built, before it listened (2,000 lists ran out of heap
 * there, on every restart). Now the port opens first and the evaluation follows in the
 * background; the server answers while it is held up.
 */
const start = Date.UTC(2026, 5, 1, 8, 0, 0);

describe('start-up with a batch whose alerts are pending', () => {
  it('listens and answers first, then evaluates it in the background', async () => {
    const url = await freshPostgresDatabase();
    const store = await HistoryStore.open({
      dataDir: null,
      databaseUrl: new Secret(url),
      retentionDays: null,
    });
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      // A first run records the demo's batch, then stops.
      const first = await startHistoryStack(store, { start });
      await first.bff.alertsIdle();
      await first.close();
      const [recorded] = await store.latestBatches(1);
      const rows = (await store.countryRows(recorded!.id)).slice(0, 5);
      const list = await insertList(store, {
        name: 'Watched',
        countries: rows.map((r) => r.iso),
        rules: [{ kind: 'active_change', min_abs_delta: 10 }],
      });
      // A batch recorded while no process evaluated (a crash, a deploy): +50 active everywhere.
      const pending = await recordSynthetic(store, {
        asOf: new Date(recorded!.asOf.getTime() + 60_000),
        // The demo's own method: a batch under another would be a method change, its moves held.
        methodologyVersion: METHODOLOGY_VERSION,
        global: null,
        source: 'demo_seed',
        demo: true,
        countries: rows.map(
          (r) =>
            ({
              iso: r.iso,
              name: r.name,
              risk: r.risk,
              tier: r.tier,
              active: (r.active ?? 0) + 50,
            }) as unknown as CountrySummary,
        ),
      });

      const second = await startHistoryStack(store, { start });
      try {
        // Built and ready, not listening yet: nothing evaluated.
        await second.app.ready();
        await second.bff.alertsIdle();
        expect((await selectUnevaluatedBatches(store.db, 10)).map((b) => b.id)).toEqual([pending]);

        // Hold the evaluation up: it needs the evaluation marks, which another session locks.
        await other.query('begin');
        await other.query('lock table alert_evaluations in access exclusive mode');
        const address = await second.app.listen({ host: '127.0.0.1', port: 0 });
        for (;;) {
          const { rows: waiting } = await other.query<{ n: string }>(
            'select count(*) as n from pg_locks where not granted',
          );
          if (Number(waiting[0]?.n) > 0) break;
        }
        // The evaluation is under way and waiting: the server answers all the same.
        expect((await fetch(`${address}/healthz`)).status).toBe(200);
        await other.query('commit');

        await second.bff.alertsIdle();
        expect(await selectUnevaluatedBatches(store.db, 10)).toEqual([]);
        const [counted] = rowsOf(
          await store.db.execute(
            sql`select count(*) as n from alerts where watchlist_id = ${list}`,
          ),
        );
        expect(Number(counted?.n)).toBe(5);
      } finally {
        await second.close();
      }
    } finally {
      await other.end();
      await store.close();
    }
  }, 120_000);
});
