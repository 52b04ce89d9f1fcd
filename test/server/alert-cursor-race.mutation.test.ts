import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AlertRule } from '../../src/shared/alerts-api.js';
import { AlertEvaluator } from '../../src/server/jobs/alert-evaluator.js';
import type { Database } from '../../src/server/store/connection.js';
import { rowsOf } from '../../src/server/store/connection.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { openAppStore } from '../helpers/history-store.js';
import {
  insertList,
  ISO_CODES,
  recordSynthetic,
  syntheticBatch,
} from '../helpers/synthetic-batches.js';

/*
 * Two evaluators on one batch (a leader that stalled past its lease and the next one): the
 * evaluator that finds the batch's cursor moved between its read and its write stops there. It
 * writes no later chunk from the cursor it skipped to, and notes no failure: the batch is in the
 * other's hands (alert-evaluator.ts, "Another process moved the cursor first").
 */
const DAY = 86_400_000;
const t0 = Date.UTC(2026, 4, 1, 3, 0, 0);
const ONE_RULE: AlertRule[] = [{ kind: 'active_change', min_abs_delta: 10 }];
const ISO = ISO_CODES[0]!;

type Logged = { level: string; message: string };

function recordingLogger(lines: Logged[]) {
  const at = (level: string) => (_fields: unknown, message: string) => {
    lines.push({ level, message });
  };
  return { info: at('info'), warn: at('warn'), error: at('error') } as never;
}

/**
 * The store as one evaluator sees it while another process works on the same batch: just before
 * this evaluator's first write (the chunk's transaction), the other moves the cursor.
 */
function racedStore(db: Database, otherProcess: () => Promise<void>): Database {
  let raced = false;
  return new Proxy(db, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (property === 'transaction' && !raced) {
        raced = true;
        return async (...args: Parameters<Database['transaction']>) => {
          await otherProcess();
          return target.transaction(...args);
        };
      }
      return typeof value === 'function'
        ? (value as (...a: unknown[]) => unknown).bind(target)
        : value;
    },
  });
}

async function cursorOf(store: HistoryStore, batchId: number) {
  const [row] = rowsOf(
    await store.db.execute(
      sql`select pending_after, attempts from alert_evaluations where batch_id = ${batchId}`,
    ),
  );
  return {
    pendingAfter: row?.pending_after == null ? null : Number(row.pending_after),
    attempts: Number(row?.attempts),
  };
}

async function alertCount(store: HistoryStore, listId: number): Promise<number> {
  const [row] = rowsOf(
    await store.db.execute(sql`select count(*) as n from alerts where watchlist_id = ${listId}`),
  );
  return Number(row?.n ?? 0);
}

describe('an evaluator whose batch cursor another process moved', () => {
  let store: HistoryStore;
  let logged: Logged[];
  const evaluatorOn = (db: Database) =>
    new AlertEvaluator({
      db,
      now: () => t0 + 3 * DAY,
      logger: recordingLogger(logged),
      linkBase: null,
      emailEnabled: false,
    });

  beforeEach(async () => {
    store = await openAppStore();
    logged = [];
  }, 60_000);
  afterEach(async () => {
    await store?.close();
  });

  it('stops: writes no later chunk, notes no failure, and leaves the batch where the other put it', async () => {
    const level = (active: number) => ({ active, risk: 20, tier: 'low' });
    await recordSynthetic(store, syntheticBatch(new Date(t0), [ISO], level(10)));
    await evaluatorOn(store.db).evaluatePending();
    // 101 lists: two pages (100 and 1), so two chunks.
    const lists: number[] = [];
    for (let i = 0; i < 101; i += 1) {
      lists.push(await insertList(store, { name: `List ${i}`, countries: [ISO], rules: ONE_RULE }));
    }
    const firstPageEnd = lists[99]!;
    const batch = await recordSynthetic(
      store,
      syntheticBatch(new Date(t0 + DAY / 2), [ISO], level(60)),
    );

    // The other process wrote the first page's chunk (cursor 0 → the 100th list) first.
    const raced = evaluatorOn(
      racedStore(store.db, async () => {
        await store.db.execute(
          sql`update alert_evaluations set pending_after = ${firstPageEnd} where batch_id = ${batch}`,
        );
      }),
    );
    expect(await raced.evaluatePending()).toBe(0);
    // Not written on from the other's cursor: the 101st list is the other's to write.
    expect(await alertCount(store, lists[100]!)).toBe(0);
    expect(await cursorOf(store, batch)).toEqual({ pendingAfter: firstPageEnd, attempts: 0 });
    expect(logged.filter((l) => l.level === 'error')).toEqual([]);

    // The other process died there: the next pass resumes at its cursor.
    expect(await evaluatorOn(store.db).evaluatePending()).toBe(1);
    expect(await alertCount(store, lists[100]!)).toBe(1);
  }, 120_000);
});
