import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pastBatches } from '../../src/demo-upstream/history-seed.js';
import { demoSeedRecord } from '../../src/server/compose/demo.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { openTestStore } from '../helpers/history-store.js';
import { countLoopTurns } from '../helpers/loop-turns.js';

/*
 * Issue 32, point 6: recording a batch on the embedded store (PGlite runs on the main thread and
 * settles statements as microtasks) lets the event loop turn between its statements, so requests
 * are answered while the demo seed records 180 of them. Counted in turns, not milliseconds.
 */
describe('recording a batch on the embedded store', () => {
  let store: HistoryStore;
  beforeAll(async () => {
    store = await openTestStore('pglite');
  }, 120_000);
  afterAll(async () => store?.close());

  it('lets the event loop turn between its statements', async () => {
    const [batch] = [...pastBatches(Date.UTC(2026, 2, 10, 12), 1)];
    const record = demoSeedRecord(batch!);
    expect(record.countries.length).toBeGreaterThan(150);
    const loop = countLoopTurns();
    const { recorded } = await store.recordBatch(record);
    loop.stop();
    expect(recorded).toBe(true);
    // At least one turn per 50 country rows (4 inserts) and after the team scores, the monthly
    // blocks and before the chain: other work ran between them.
    expect(loop.turns()).toBeGreaterThanOrEqual(Math.ceil(record.countries.length / 50) + 3);
  });

  it('seals a month a group of countries at a time, with turns between', async () => {
    // A batch in the next month seals the month before it (its blocks, series.ts).
    const [april] = [...pastBatches(Date.UTC(2026, 3, 2, 12), 1)];
    const record = demoSeedRecord(april!);
    const loop = countLoopTurns();
    const { recorded } = await store.recordBatch(record);
    loop.stop();
    expect(recorded).toBe(true);
    const sealed = await store.db.execute('select month from sealed_months');
    expect(JSON.stringify(sealed)).toContain('2026-03-01');
    const inserts = Math.ceil(record.countries.length / 50) + 3;
    const sealGroups = Math.ceil(record.countries.length / 40);
    expect(loop.turns()).toBeGreaterThanOrEqual(inserts + sealGroups);
  });
});
