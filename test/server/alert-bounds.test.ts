import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AlertRule } from '../../src/shared/alerts-api.js';
import { AlertEvaluator } from '../../src/server/jobs/alert-evaluator.js';
import {
  selectListFailures,
  selectUnevaluatedBatches,
  writeEvaluationChunk,
} from '../../src/server/store/alerts.js';
import { rowsOf } from '../../src/server/store/connection.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { openTestStore, STORE_BACKENDS } from '../helpers/history-store.js';
import {
  insertList,
  ISO_CODES,
  recordSynthetic,
  syntheticBatch,
} from '../helpers/synthetic-batches.js';

/*
 * Evaluation bounded whatever users create (issue 18): twenty ordinary lists used to make one
 * INSERT of more than 65,535 parameters, so nobody got an alert and every later batch retried
 * the failed one first; a list that fails must fail alone.
 */
const DAY = 86_400_000;
const t0 = Date.UTC(2026, 4, 1, 3, 0, 0);
// Twenty active-change rules (1 … 20): a rise of 50 fires all of them for every country.
const MANY_RULES: AlertRule[] = Array.from({ length: 20 }, (_, i) => ({
  kind: 'active_change' as const,
  min_abs_delta: i + 1,
}));
const ONE_RULE: AlertRule[] = [{ kind: 'active_change', min_abs_delta: 10 }];
const CONTROL_ISO = ISO_CODES[200]!;

type Logged = { level: string; fields: Record<string, unknown>; message: string };

function recordingLogger(lines: Logged[]) {
  const at = (level: string) => (fields: Record<string, unknown>, message: string) => {
    lines.push({ level, fields, message });
  };
  return { info: at('info'), warn: at('warn'), error: at('error') } as never;
}

async function alertCount(store: HistoryStore, listId: number): Promise<number> {
  const [row] = rowsOf(
    await store.db.execute(sql`select count(*) as n from alerts where watchlist_id = ${listId}`),
  );
  return Number(row?.n ?? 0);
}

describe.each(STORE_BACKENDS)('bounded alert evaluation (%s)', (backend) => {
  let store: HistoryStore;
  let logged: Logged[];
  let evaluator: AlertEvaluator;

  beforeEach(async () => {
    store = await openTestStore(backend);
    logged = [];
    evaluator = new AlertEvaluator({
      db: store.db,
      // Two days after the batches: alerts go to the inbox only (no deliveries needed here).
      now: () => t0 + 3 * DAY,
      logger: recordingLogger(logged),
      linkBase: null,
      emailEnabled: false,
    });
  }, 60_000);
  afterEach(async () => {
    await store?.close();
  });

  it('evaluates 20 lists of 42 countries and 20 rules in one batch; a one-country list gets its alert', async () => {
    const isos = ISO_CODES.slice(0, 42);
    const all = [...isos, CONTROL_ISO];
    await recordSynthetic(
      store,
      syntheticBatch(new Date(t0), all, { active: 10, risk: 20, tier: 'low' }),
    );
    for (let i = 0; i < 20; i += 1) {
      await insertList(store, { name: `Region ${i}`, countries: isos, rules: MANY_RULES });
    }
    const control = await insertList(store, {
      name: 'Control',
      countries: [CONTROL_ISO],
      rules: ONE_RULE,
    });
    await recordSynthetic(
      store,
      syntheticBatch(new Date(t0 + DAY / 2), all, { active: 60, risk: 20, tier: 'low' }),
    );

    // 20 × 42 × 20 = 16,800 alerts (about 170,000 parameters as one INSERT) plus the control's.
    expect(await evaluator.evaluatePending()).toBe(16_801);
    expect(await alertCount(store, control)).toBe(1);
    expect(await selectUnevaluatedBatches(store.db, 10)).toEqual([]);
    expect(logged.filter((l) => l.level === 'error')).toEqual([]);
    // Evaluated once: a second pass (a restart, another process) adds nothing.
    expect(await evaluator.evaluatePending()).toBe(0);
  }, 120_000);

  it('a list whose evaluation throws, or whose alerts cannot be written, fails alone', async () => {
    const isos = ISO_CODES.slice(0, 5);
    const first = await recordSynthetic(
      store,
      syntheticBatch(new Date(t0), isos, { active: 10, risk: 20, tier: 'low' }),
    );
    expect(await evaluator.evaluatePending()).toBe(0);
    const before = await insertList(store, { name: 'Before', countries: isos, rules: ONE_RULE });
    // A rule stored by another version of the code: evaluating it throws.
    const unreadable = await insertList(store, {
      name: 'From a newer version',
      countries: isos,
      rules: [{ kind: 'from_a_newer_version' } as unknown as AlertRule],
    });
    // A list whose alerts the database refuses (a trigger stands in for any write failure).
    const refused = await insertList(store, { name: 'Refused', countries: isos, rules: ONE_RULE });
    const after = await insertList(store, { name: 'After', countries: isos, rules: ONE_RULE });
    await store.db.execute(
      sql.raw(`create function refuse_alert() returns trigger language plpgsql as $$
        begin raise exception 'refused for the test'; end $$`),
    );
    await store.db.execute(
      sql.raw(`create trigger refuse_alert before insert on alerts for each row
        when (new.watchlist_id = ${refused}) execute function refuse_alert()`),
    );
    const second = await recordSynthetic(
      store,
      syntheticBatch(new Date(t0 + DAY / 2), isos, { active: 60, risk: 20, tier: 'low' }),
    );

    expect(await evaluator.evaluatePending()).toBe(10);
    expect(await alertCount(store, before)).toBe(5);
    expect(await alertCount(store, after)).toBe(5);
    expect(await alertCount(store, unreadable)).toBe(0);
    expect(await alertCount(store, refused)).toBe(0);
    // Noted for that batch and logged; the batch is finished, not retried first forever.
    const failures = await selectListFailures(store.db, second);
    expect(failures.map((f) => f.watchlistId)).toEqual([unreadable, refused]);
    expect(failures[0]!.reason).toMatch(/unknown rule kind "from_a_newer_version"/);
    expect(failures[1]!.reason).toMatch(/refused for the test/);
    expect(await selectListFailures(store.db, first)).toEqual([]);
    expect(await selectUnevaluatedBatches(store.db, 10)).toEqual([]);
    const errors = logged.filter((l) => l.level === 'error').map((l) => l.fields.watchlist_id);
    expect(errors).toEqual([unreadable, refused]);
    expect(logged.find((l) => l.level === 'error')?.message).toBe(
      'alert evaluation of a watchlist failed: skipped, the other lists went on',
    );

    // The next batch goes on for everyone else as well.
    await recordSynthetic(
      store,
      syntheticBatch(new Date(t0 + DAY), isos, { active: 10, risk: 20, tier: 'low' }),
    );
    expect(await evaluator.evaluatePending()).toBe(10);
    expect(await alertCount(store, before)).toBe(10);
    expect(await alertCount(store, after)).toBe(10);
  }, 120_000);

  it('a batch that fails outside any list does not hold up later ones, and is given up after 3 passes', async () => {
    const isos = ISO_CODES.slice(0, 5);
    const level = (active: number) => ({ active, risk: 20, tier: 'low' });
    await recordSynthetic(store, syntheticBatch(new Date(t0), isos, level(10)));
    await evaluator.evaluatePending();
    const list = await insertList(store, { name: 'L', countries: isos, rules: ONE_RULE });
    const broken = await recordSynthetic(
      store,
      syntheticBatch(new Date(t0 + DAY / 2), isos, level(60)),
    );
    // Moving this batch's cursor fails (a stand-in for any failure outside one list); counting
    // an attempt does not.
    await store.db.execute(
      sql.raw(`create function refuse_cursor() returns trigger language plpgsql as $$
        begin raise exception 'cursor refused for the test'; end $$`),
    );
    await store.db.execute(
      sql.raw(`create trigger refuse_cursor before update on alert_evaluations for each row
        when (new.batch_id = ${broken} and new.attempts = old.attempts)
        execute function refuse_cursor()`),
    );
    await recordSynthetic(store, syntheticBatch(new Date(t0 + DAY), isos, level(10)));

    // The later batch is evaluated in the same pass (5 alerts: 60 → 10 everywhere).
    expect(await evaluator.evaluatePending()).toBe(5);
    expect(await alertCount(store, list)).toBe(5);
    const pendingIds = async () => (await selectUnevaluatedBatches(store.db, 10)).map((b) => b.id);
    expect(await pendingIds()).toEqual([broken]);
    expect(await evaluator.evaluatePending()).toBe(0);
    expect(await pendingIds()).toEqual([broken]);
    expect(await evaluator.evaluatePending()).toBe(0);
    expect(await pendingIds()).toEqual([]);
    const messages = logged.filter((l) => l.level === 'error').map((l) => l.message);
    expect(messages).toHaveLength(3);
    expect(messages[0]).toBe('alert evaluation of a batch failed: the next pass tries again');
    expect(messages[2]).toMatch(/failed 3 times: given up/);
    // The database's reason, not the failed query with its parameters.
    expect(logged[0]?.fields.reason).toBe('cursor refused for the test');
  }, 120_000);

  it('a batch whose failures cannot even be counted is tried again on every pass, never given up', async () => {
    const isos = ISO_CODES.slice(0, 5);
    const level = (active: number) => ({ active, risk: 20, tier: 'low' });
    await recordSynthetic(store, syntheticBatch(new Date(t0), isos, level(10)));
    await evaluator.evaluatePending();
    await insertList(store, { name: 'L', countries: isos, rules: ONE_RULE });
    const broken = await recordSynthetic(
      store,
      syntheticBatch(new Date(t0 + DAY / 2), isos, level(60)),
    );
    // Every change to this batch's evaluation fails, the count of its attempts too.
    await store.db.execute(
      sql.raw(`create function refuse_all() returns trigger language plpgsql as $$
        begin raise exception 'refused for the test'; end $$`),
    );
    await store.db.execute(
      sql.raw(`create trigger refuse_all before update on alert_evaluations for each row
        when (new.batch_id = ${broken}) execute function refuse_all()`),
    );
    for (let pass = 0; pass < 4; pass += 1) expect(await evaluator.evaluatePending()).toBe(0);
    expect((await selectUnevaluatedBatches(store.db, 10)).map((b) => b.id)).toEqual([broken]);
    expect(logged.filter((l) => l.level === 'error').map((l) => l.message)).toEqual(
      Array(4).fill('alert evaluation of a batch failed: the next pass tries again'),
    );
  });

  it('reads lists a page of 100 at a time and evaluates all 101 in one pass', async () => {
    const iso = ISO_CODES[0]!;
    await recordSynthetic(
      store,
      syntheticBatch(new Date(t0), [iso], { active: 10, risk: 20, tier: 'low' }),
    );
    await evaluator.evaluatePending();
    for (let i = 0; i < 101; i += 1) {
      await insertList(store, { name: `List ${i}`, countries: [iso], rules: ONE_RULE });
    }
    await recordSynthetic(
      store,
      syntheticBatch(new Date(t0 + DAY / 2), [iso], { active: 60, risk: 20, tier: 'low' }),
    );
    expect(await evaluator.evaluatePending()).toBe(101);
    expect(await selectUnevaluatedBatches(store.db, 10)).toEqual([]);
  }, 60_000);

  it('writes a chunk as soon as it holds 5,000 alerts, never splitting a list', async () => {
    // Six lists of 50 countries × 20 rules: 1,000 alerts each.
    const isos = ISO_CODES.slice(0, 50);
    await recordSynthetic(
      store,
      syntheticBatch(new Date(t0), isos, { active: 10, risk: 20, tier: 'low' }),
    );
    await evaluator.evaluatePending();
    for (let i = 0; i < 6; i += 1) {
      await insertList(store, { name: `Region ${i}`, countries: isos, rules: MANY_RULES });
    }
    await recordSynthetic(
      store,
      syntheticBatch(new Date(t0 + DAY / 2), isos, { active: 60, risk: 20, tier: 'low' }),
    );
    expect(await evaluator.evaluatePending()).toBe(6_000);
    // One line per chunk written: five lists make exactly 5,000, the sixth its own chunk.
    const chunks = logged
      .filter((l) => l.message === 'alerts raised for a new batch')
      .map((l) => l.fields.alerts);
    expect(chunks).toEqual([5_000, 1_000]);
  }, 120_000);

  it('resumes a batch at its cursor after a crash; a writer behind the cursor adds nothing', async () => {
    const isos = ISO_CODES.slice(0, 5);
    await recordSynthetic(
      store,
      syntheticBatch(new Date(t0), isos, { active: 10, risk: 20, tier: 'low' }),
    );
    await evaluator.evaluatePending();
    const [a, b, c] = [
      await insertList(store, { name: 'A', countries: isos, rules: ONE_RULE }),
      await insertList(store, { name: 'B', countries: isos, rules: ONE_RULE }),
      await insertList(store, { name: 'C', countries: isos, rules: ONE_RULE }),
    ];
    const asOf = new Date(t0 + DAY / 2);
    const second = await recordSynthetic(
      store,
      syntheticBatch(asOf, isos, { active: 60, risk: 20, tier: 'low' }),
    );
    // A process died after its chunk through list A (A's alerts left out here, to see them not
    // written again).
    await store.db.execute(
      sql`insert into alert_evaluations (batch_id, alerts, pending_after) values (${second}, 0, ${a})`,
    );
    expect(await evaluator.evaluatePending()).toBe(10);
    expect([
      await alertCount(store, a),
      await alertCount(store, b),
      await alertCount(store, c),
    ]).toEqual([0, 5, 5]);

    // A slow process still holding the chunk from the start: the cursor has moved, it writes nothing.
    const stale = await writeEvaluationChunk(
      store.db,
      {
        batchId: second,
        after: 0,
        through: a,
        last: false,
        lists: [
          {
            watchlistId: a,
            candidates: [
              {
                watchlistId: a,
                ruleKey: 'active_change:10',
                kind: 'active_change',
                iso: isos[0]!,
                country: 'Stale',
                batchAsOf: asOf,
                message: 'stale',
                before: null,
                after: { as_of: asOf.toISOString(), risk: 20, tier: 'low', active: 60 },
              },
            ],
          },
        ],
      },
      () => [],
    );
    expect(stale).toBeNull();
    expect(await alertCount(store, a)).toBe(0);
    expect(await selectUnevaluatedBatches(store.db, 10)).toEqual([]);
  }, 120_000);
});

describe.each(STORE_BACKENDS)('statement size (%s)', (backend) => {
  it('writes 17,000 alerts of one list in one chunk (170,000 parameters as one INSERT)', async () => {
    const store = await openTestStore(backend);
    try {
      const isos = ISO_CODES.slice(0, 100);
      const asOf = new Date(t0);
      const batchId = await recordSynthetic(
        store,
        syntheticBatch(asOf, isos, { active: 10, risk: 20, tier: 'low' }),
      );
      const list = await insertList(store, { name: 'Wide', countries: isos, rules: ONE_RULE });
      const after = { as_of: asOf.toISOString(), risk: 20, tier: 'low', active: 10 };
      // More than a list can raise today (2,000): the store must not rely on that. As one INSERT
      // this overflows the JavaScript stack while the parameters are bound (both drivers).
      const candidates = Array.from({ length: 17_000 }, (_, i) => ({
        watchlistId: list,
        ruleKey: `active_change:${1 + Math.floor(i / 100)}`,
        kind: 'active_change' as const,
        iso: isos[i % 100]!,
        country: 'Somewhere',
        batchAsOf: asOf,
        message: 'moved',
        before: null,
        after,
      }));
      await store.db.execute(
        sql`insert into alert_evaluations (batch_id, alerts, pending_after) values (${batchId}, 0, 0)`,
      );
      const written = await writeEvaluationChunk(
        store.db,
        {
          batchId,
          after: 0,
          through: list,
          last: true,
          lists: [{ watchlistId: list, candidates }],
        },
        () => [],
      );
      expect(written?.failures).toEqual([]);
      expect(written?.inserted).toHaveLength(17_000);
      expect(await alertCount(store, list)).toBe(17_000);
    } finally {
      await store.close();
    }
  }, 120_000);
});
