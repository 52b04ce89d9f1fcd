import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEAM_WATCHLISTS_MAX, type AlertRule } from '../../src/shared/alerts-api.js';
import { AlertEvaluator } from '../../src/server/jobs/alert-evaluator.js';
import { alerts, deliveries } from '../../src/server/store/alerts-schema.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { insertWatchlist } from '../../src/server/store/watchlists.js';
import { newWebhookSecret } from '../../src/server/services/alerts/watchlists.js';
import { batchRecord, countryRow, event, HOUR } from '../fixtures/history.js';
import { openAppStore } from '../helpers/history-store.js';

/*
 * What one evaluation queues for each list: a webhook per alert (to lists with a webhook), one
 * e-mail digest per list (with an address, and only when SMTP is configured), nothing for a list
 * with neither; the webhook names the previous batch; a backfill writes to the inbox only.
 */
let store: HistoryStore;
beforeAll(async () => {
  store = await openAppStore();
}, 60_000);
afterAll(async () => {
  await store?.close();
});

const RULES: AlertRule[] = [
  { kind: 'active_change', min_abs_delta: 0.1 },
  { kind: 'risk_threshold', threshold: 55, direction: 'up' },
];

async function makeList(
  name: string,
  webhook: boolean,
  email: boolean,
  countries = ['AAA', 'BBB'],
  rules: AlertRule[] = RULES,
): Promise<number> {
  const row = await insertWatchlist(
    store.db,
    {
      name,
      countries,
      rules,
      owner: null,
      webhookUrl: webhook ? 'https://hooks.example/x' : null,
      webhookFormat: 'standard',
      webhookSecret: webhook ? newWebhookSecret() : null,
      email: email ? 'desk@example.com' : null,
    },
    TEAM_WATCHLISTS_MAX,
  );
  if (!row) throw new Error('the watchlist limit refused a test list');
  return row.id;
}

function evaluator(now: () => number, emailEnabled: boolean, queued: string[], logs: unknown[]) {
  return new AlertEvaluator({
    db: store.db,
    now,
    logger: {
      info: (fields: unknown, message: string) => logs.push([message, fields]),
      warn() {},
      error: (fields: unknown, message: string) => logs.push([message, fields]),
    } as never,
    linkBase: 'https://dash.example',
    emailEnabled,
    onQueued: () => queued.push('queued'),
  });
}

const queuedFor = (ids: number[]) =>
  store.db
    .select()
    .from(deliveries)
    .where(inArray(deliveries.watchlistId, ids))
    .orderBy(deliveries.watchlistId, deliveries.channel, deliveries.id);

describe('deliveries of a new batch', () => {
  it('a webhook per alert, one digest per list, nothing for a list with neither', async () => {
    const t0 = Date.UTC(2026, 4, 1, 8);
    const both = await makeList('Both', true, true);
    const mailOnly = await makeList('Mail only', false, true);
    const neither = await makeList('Neither', false, false);
    // A list with an address whose countries did not move, and one with a URL but no secret.
    const quiet = await makeList('Quiet', true, true, ['QQQ']);
    const unsigned = await insertWatchlist(
      store.db,
      {
        name: 'Unsigned',
        countries: ['AAA'],
        rules: RULES,
        owner: null,
        webhookUrl: 'https://hooks.example/unsigned',
        webhookFormat: 'standard',
        webhookSecret: null,
        email: null,
      },
      TEAM_WATCHLISTS_MAX,
    );
    const now = t0 + 2 * HOUR;
    const queued: string[] = [];
    const logs: unknown[] = [];
    const rows0 = (aaa: number) => [
      countryRow('AAA', aaa),
      countryRow('BBB', 20),
      countryRow('QQQ', 20),
    ];
    await store.recordBatch(batchRecord(t0, rows0(50)));
    await store.recordBatch(batchRecord(t0 + HOUR, rows0(60)));
    const run = evaluator(() => now, true, queued, logs);
    // Each list with AAA: its active change and its crossing of 55; BBB and QQQ did not move.
    expect(await run.evaluatePending()).toBe(8);
    expect(await run.evaluatePending()).toBe(0);
    expect(queued).toEqual(['queued']);
    expect(logs).toContainEqual([
      'alerts raised for a new batch',
      { as_of: new Date(t0 + HOUR).toISOString(), alerts: 8 },
    ]);

    const rows = await queuedFor([both, mailOnly, neither, quiet, unsigned!.id]);
    expect(rows.map((r) => [r.watchlistId, r.channel])).toEqual([
      [both, 'email'],
      [both, 'webhook'],
      [both, 'webhook'],
      [mailOnly, 'email'],
    ]);
    for (const row of rows) {
      expect(row).toMatchObject({ state: 'pending', attempts: 0 });
      expect(row.nextAttemptAt.getTime()).toBe(now);
      expect(row.createdAt.getTime()).toBe(now);
      expect(row.messageId).toMatch(
        row.channel === 'webhook' ? /^msg_[0-9a-f]{32}$/ : /^mail_[0-9a-f]{32}$/,
      );
    }
    const hook = JSON.parse(rows[1]!.body) as {
      data: { batch: unknown; watchlist: unknown; country: { iso: string } };
    };
    expect(hook.data.batch).toEqual({
      as_of: new Date(t0 + HOUR).toISOString(),
      previous_as_of: new Date(t0).toISOString(),
      id: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(hook.data.watchlist).toEqual({ id: String(both), name: 'Both' });
    expect(hook.data.country.iso).toBe('AAA');
    const mail = JSON.parse(rows[0]!.body) as { to: string; subject: string };
    expect(mail.to).toBe('desk@example.com');
    expect(mail.subject).toContain('2 alerts for "Both"');
  });

  it('without SMTP no digest is queued; a batch with no alert queues nothing', async () => {
    const t0 = Date.UTC(2026, 4, 3, 8);
    // Its own country, so the lists of the other tests raise nothing here.
    const list = await makeList('No SMTP', true, true, ['CCC']);
    const queued: string[] = [];
    const logs: unknown[] = [];
    await store.recordBatch(batchRecord(t0, [countryRow('CCC', 50)]));
    await store.recordBatch(batchRecord(t0 + HOUR, [countryRow('CCC', 50)]));
    const run = evaluator(() => t0 + HOUR, false, queued, logs);
    expect(await run.evaluatePending()).toBe(0);
    expect(queued).toEqual([]);
    await store.recordBatch(batchRecord(t0 + 2 * HOUR, [countryRow('CCC', 51)]));
    expect(await run.evaluatePending()).toBe(1);
    expect((await queuedFor([list])).map((r) => r.channel)).toEqual(['webhook']);
    expect(queued).toEqual(['queued']);
  });
});

describe('the first batch of all', () => {
  it('sends its webhooks with no previous batch named', async () => {
    // Before every other batch of this file's store: it has no previous batch.
    const t0 = Date.UTC(2026, 0, 1, 8);
    const list = await makeList('First', true, false, ['FFF'], [{ kind: 'breaking_event' }]);
    // A breaking event: the one rule that fires without a batch to compare with.
    await store.archiveEvents(
      'FFF',
      [event(t0 - HOUR, 'Unrest', { breaking: true })],
      new Date(t0),
    );
    await store.recordBatch(batchRecord(t0, [countryRow('FFF', 60)]));
    const run = evaluator(() => t0 + HOUR, true, [], []);
    await run.evaluatePending();
    const [hook] = await queuedFor([list]);
    const body = JSON.parse(hook!.body) as { data: { batch: unknown } };
    expect(body.data.batch).toEqual({
      as_of: new Date(t0).toISOString(),
      previous_as_of: null,
      id: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });
});

describe('passes', () => {
  it('idle() settles once the pass under way is done', async () => {
    const t0 = Date.UTC(2026, 4, 6, 8);
    const list = await makeList('Idle', false, false, ['III']);
    await store.recordBatch(batchRecord(t0, [countryRow('III', 50)]));
    await store.recordBatch(batchRecord(t0 + HOUR, [countryRow('III', 60)]));
    const run = evaluator(() => t0 + HOUR, false, [], []);
    void run.evaluatePending();
    await run.idle();
    expect(await store.db.select().from(alerts).where(eq(alerts.watchlistId, list))).toHaveLength(
      2,
    );
  });

  it('a pass that cannot read the store is logged in words, and the next pass runs', async () => {
    const closed = await openAppStore();
    await closed.close();
    const logs: unknown[] = [];
    const run = new AlertEvaluator({
      db: closed.db,
      now: Date.now,
      logger: {
        info() {},
        warn() {},
        error: (f: unknown, m: string) => logs.push([m, f]),
      } as never,
      linkBase: null,
      emailEnabled: false,
    });
    await expect(run.evaluatePending()).rejects.toThrow();
    await expect(run.evaluatePending()).rejects.toThrow();
    await run.idle();
    expect(logs).toHaveLength(2);
    expect(logs[0]).toEqual(['alert evaluation failed', { reason: expect.any(String) }]);
  });
});

describe('a batch older than 48 hours', () => {
  it('raises its alerts in the inbox, queues nothing and wakes no sender', async () => {
    const t0 = Date.UTC(2026, 4, 4, 8);
    const list = await makeList('Late', true, true, ['EEE']);
    const queued: string[] = [];
    await store.recordBatch(batchRecord(t0, [countryRow('EEE', 40)]));
    await store.recordBatch(batchRecord(t0 + HOUR, [countryRow('EEE', 60)]));
    const run = evaluator(() => t0 + 50 * HOUR, true, queued, []);
    expect(await run.evaluatePending()).toBe(2);
    expect(await queuedFor([list])).toEqual([]);
    expect(queued).toEqual([]);
  });
});

describe('a backfill', () => {
  it('raises a list’s alerts over the whole history into the inbox only, once', async () => {
    const t0 = Date.UTC(2026, 4, 5, 8);
    await store.recordBatch(batchRecord(t0, [countryRow('DDD', 40)]));
    await store.archiveEvents(
      'DDD',
      [event(t0 + HOUR / 2, 'Unrest', { breaking: true })],
      new Date(t0 + HOUR),
    );
    await store.recordBatch(batchRecord(t0 + HOUR, [countryRow('DDD', 60)]));
    const list = await makeList(
      'Backfilled',
      true,
      true,
      ['DDD'],
      [...RULES, { kind: 'breaking_event' }],
    );
    const run = evaluator(() => t0 + 2 * HOUR, true, [], []);
    const added = await run.backfill(list);
    const raised = await store.db.select().from(alerts).where(eq(alerts.watchlistId, list));
    // Every pair of consecutive batches of the store, this test's last among them.
    expect(added).toBe(raised.length);
    // The active change, the crossing of 55 and the breaking event.
    expect(
      raised
        .filter((a) => a.batchAsOf.getTime() === t0 + HOUR)
        .map((a) => a.kind)
        .sort(),
    ).toEqual(['active_change', 'breaking_event', 'risk_threshold']);
    expect(raised.filter((a) => a.batchAsOf.getTime() === t0)).toEqual([]);
    expect(await queuedFor([list])).toEqual([]);
    expect(await run.backfill(list)).toBe(0);
    expect(await run.backfill(list + 1000)).toBe(0);
  });
});
