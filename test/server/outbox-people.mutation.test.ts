import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEAM_WATCHLISTS_MAX } from '../../src/shared/alerts-api.js';
import type { DailyDigests } from '../../src/server/services/alerts/daily-digest.js';
import type { Mailer } from '../../src/server/jobs/mailer.js';
import { OutboxWorker } from '../../src/server/jobs/outbox-worker.js';
import type { SendResult } from '../../src/server/jobs/webhook-sender.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import {
  insertDelivery,
  selectDelivery,
  selectDeliveryLog,
} from '../../src/server/store/outbox.js';
import { insertDigest, writePersonSettings } from '../../src/server/store/person-settings.js';
import { digestDeliveries } from '../../src/server/store/person-settings-schema.js';
import { insertWatchlist } from '../../src/server/store/watchlists.js';
import { TestClock } from '../helpers/clock.js';
import { openAppStore } from '../helpers/history-store.js';
import { ManualScheduler } from '../helpers/manual-scheduler.js';
import { recordingLogger } from '../helpers/outbox.js';

/*
 * The outbox worker's people (jobs/outbox-worker.ts) on a store of its own, with a mailer that
 * records what it is given: a person's e-mail off or quiet hours applied to a list's e-mail, and
 * the daily digests' lane (sent, retried, given up, logged, waited for by idle()). Each case pins
 * lines that only person-settings.test.ts (the whole app, 10–30 s a case) reached, or nothing.
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const NIGHT = Date.UTC(2026, 6, 5, 23); // 23:00 UTC: inside quiet hours 22:00–07:00 (UTC)
const MORNING = Date.UTC(2026, 6, 6, 7);

const delivered: SendResult = {
  status: 250,
  retryAfterMs: null,
  durationMs: 3,
  error: null,
  retryable: false,
};

let store: HistoryStore;
beforeEach(async () => {
  store = await openAppStore();
}, 60_000);
afterEach(async () => {
  await store?.close();
});

function recordingMailer(result: SendResult = delivered) {
  const bodies: string[] = [];
  const mailer: Mailer = {
    // Answers on a later turn, as a real SMTP exchange does.
    send: (body) =>
      new Promise((resolve) => {
        bodies.push(body);
        setImmediate(() => resolve(result));
      }),
    close() {},
  };
  return { bodies, mailer };
}

function worker(
  clock: TestClock,
  mailer: Mailer,
  extra: { digests?: DailyDigests; logger?: never; scheduler?: ManualScheduler } = {},
) {
  return new OutboxWorker({
    db: store.db,
    now: clock.now,
    logger: extra.logger ?? recordingLogger().logger,
    mailer,
    digests: extra.digests ?? null,
    scheduler: extra.scheduler ?? new ManualScheduler(clock.now),
    random: () => 0.5,
    send: { allowPrivate: true, connectTimeoutMs: 2_000, totalTimeoutMs: 2_000 },
  });
}

async function person(
  email: string,
  settings: { emailEnabled?: boolean; quiet?: [number, number] | null } = {},
): Promise<void> {
  await writePersonSettings(
    store.db,
    {
      subject: `proxy:${email}`,
      email,
      emailEnabled: settings.emailEnabled ?? true,
      digestHour: null,
      timeZone: 'UTC',
      quietStart: settings.quiet ? settings.quiet[0] : null,
      quietEnd: settings.quiet ? settings.quiet[1] : null,
      updatedAt: new Date(NIGHT),
    },
    0,
  );
}

let serial = 0;
async function mail(to: unknown, at: number, critical = false) {
  const list = await insertWatchlist(
    store.db,
    {
      name: `List ${(serial += 1)}`,
      countries: ['MLI'],
      rules: [],
      owner: null,
      webhookUrl: null,
      webhookFormat: 'standard',
      webhookSecret: null,
      email: typeof to === 'string' ? to : 'desk@example.com',
    },
    TEAM_WATCHLISTS_MAX,
  );
  return insertDelivery(store.db, {
    messageId: `msg_people_${(serial += 1)}`,
    watchlistId: list!.id,
    channel: 'email',
    body: JSON.stringify({ to, subject: 'Alerts', text: 't', html: 'h', critical }),
    state: 'pending',
    nextAttemptAt: new Date(at),
    createdAt: new Date(at),
  });
}

const sentTo = (bodies: string[]): unknown[] =>
  bodies.map((body) => (JSON.parse(body) as { to: unknown }).to);

async function runOnce(outbox: OutboxWorker): Promise<void> {
  outbox.start();
  await outbox.idle();
  await outbox.stop();
}

describe('a person’s settings on a list’s e-mail', () => {
  it('e-mail off: the delivery fails in words at once, is never sent and never retried', async () => {
    await person('off@example.com', { emailEnabled: false });
    const due = await mail('off@example.com', NIGHT);
    const { bodies, mailer } = recordingMailer();
    await runOnce(worker(new TestClock(NIGHT), mailer));
    expect(bodies).toEqual([]);
    expect(await selectDeliveryLog(store.db, due.watchlistId, 10)).toMatchObject([
      {
        attempt: 1,
        state: 'failed',
        status: null,
        error: 'not sent: the recipient turned e-mail off in their settings',
      },
    ]);
    expect((await selectDelivery(store.db, due.messageId))?.state).toBe('failed');
  });

  it('quiet hours hold a non-critical e-mail until they end, with no attempt and a log line', async () => {
    await person('quiet@example.com', { quiet: [22 * 60, 7 * 60] });
    const held = await mail('quiet@example.com', NIGHT);
    const { bodies, mailer } = recordingMailer();
    const { lines, logger } = recordingLogger();
    await runOnce(worker(new TestClock(NIGHT), mailer, { logger }));
    expect(bodies).toEqual([]);
    const row = await selectDelivery(store.db, held.messageId);
    expect(row).toMatchObject({ state: 'pending', attempts: 0, lockedUntil: null });
    expect(row?.nextAttemptAt.getTime()).toBe(MORNING);
    expect(await selectDeliveryLog(store.db, held.watchlistId, 10)).toEqual([]);
    expect(lines).toEqual([
      {
        level: 'info',
        fields: { delivery: held.messageId, until: new Date(MORNING).toISOString() },
        message: 'e-mail held for the recipient’s quiet hours',
      },
    ]);
  });

  it('sends at once what quiet hours do not hold', async () => {
    await person('quiet@example.com', { quiet: [22 * 60, 7 * 60] });
    await person('loud@example.com', { quiet: null });
    await mail('quiet@example.com', NIGHT, true); // critical: through at night
    await mail('loud@example.com', NIGHT); // no quiet hours
    await mail('nobody@example.com', NIGHT); // no settings saved
    await mail(['list@example.com'], NIGHT); // not one address: no person to look up
    const { bodies, mailer } = recordingMailer();
    await runOnce(worker(new TestClock(NIGHT), mailer));
    expect(sentTo(bodies).sort()).toEqual(
      ['loud@example.com', 'nobody@example.com', 'quiet@example.com', ['list@example.com']].sort(),
    );
  });

  it('quiet hours that are over hold nothing', async () => {
    await person('quiet@example.com', { quiet: [22 * 60, 7 * 60] });
    await mail('quiet@example.com', MORNING + HOUR);
    const { bodies, mailer } = recordingMailer();
    await runOnce(worker(new TestClock(MORNING + HOUR), mailer));
    expect(sentTo(bodies)).toEqual(['quiet@example.com']);
  });
});

describe('the daily digests’ lane', () => {
  const digest = (id: string, at: number) =>
    insertDigest(store.db, {
      subject: `proxy:${id}@example.com`,
      day: new Date(at).toISOString().slice(0, 10),
      messageId: `digest_${id}`,
      body: JSON.stringify({ to: `${id}@example.com`, subject: 'Digest', text: 't', html: 'h' }),
      state: 'pending',
      nextAttemptAt: new Date(at),
      createdAt: new Date(at),
    });
  const row = async (id: string) =>
    (
      await store.db
        .select()
        .from(digestDeliveries)
        .where(eq(digestDeliveries.messageId, `digest_${id}`))
    )[0];
  const queued: number[] = [];
  const digests = {
    queueDue: (now: number) => {
      queued.push(now);
      return Promise.resolve(0);
    },
  } as unknown as DailyDigests;

  it('queues what is due, sends each due digest once, logs it, and idle() waits for it', async () => {
    queued.length = 0;
    const t = Date.UTC(2026, 6, 6, 9, 7);
    await digest('ann', t - MINUTE);
    await digest('bo', t);
    await digest('later', t + HOUR);
    const { bodies, mailer } = recordingMailer();
    const { lines, logger } = recordingLogger();
    const outbox = worker(new TestClock(t), mailer, { digests, logger });
    outbox.start();
    await outbox.idle();
    // A lane that sent something looks again at once (and queues again); the second sent none.
    expect(queued).toEqual([t, t]);
    expect(sentTo(bodies)).toEqual(['ann@example.com', 'bo@example.com']);
    expect(await row('ann')).toMatchObject({ state: 'delivered', attempts: 1, lockedUntil: null });
    expect((await row('later'))?.state).toBe('pending');
    expect(lines).toContainEqual({
      level: 'info',
      fields: { delivery: 'digest_ann', channel: 'digest', attempt: 1, state: 'delivered' },
      message: 'daily digest delivered',
    });
    await outbox.stop();
  });

  it('wakes for the next digest due, and on the quarter hour (a local hour starts on one)', async () => {
    // 09:11: the quarter hour (09:15) comes before the 5-minute poll (09:16).
    const t = Date.UTC(2026, 6, 6, 9, 11);
    const { mailer } = recordingMailer();
    const scheduler = new ManualScheduler(() => t);
    const quiet = worker(new TestClock(t), mailer, { digests, scheduler });
    await runOnceKeepingSchedule(quiet);
    expect(scheduler.nextAt()).toBe(Date.UTC(2026, 6, 6, 9, 15));
    await quiet.stop();
    await digest('soon', t + 3 * MINUTE);
    const second = new ManualScheduler(() => t);
    const soon = worker(new TestClock(t), mailer, { digests, scheduler: second });
    await runOnceKeepingSchedule(soon);
    expect(second.nextAt()).toBe(t + 3 * MINUTE);
    await soon.stop();
  });

  it('without digests or a mailer, wakes at the 5-minute poll, not on the quarter hour', async () => {
    const t = Date.UTC(2026, 6, 6, 9, 11);
    const { mailer } = recordingMailer();
    const scheduler = new ManualScheduler(() => t);
    const outbox = worker(new TestClock(t), mailer, { scheduler });
    await runOnceKeepingSchedule(outbox);
    expect(scheduler.nextAt()).toBe(t + 5 * MINUTE);
    await outbox.stop();
  });

  it('a replica the leader fence refuses sends no digest', async () => {
    const t = Date.UTC(2026, 6, 6, 9, 7);
    await digest('fenced', t);
    const { bodies, mailer } = recordingMailer();
    const outbox = new OutboxWorker({
      db: store.db,
      now: () => t,
      logger: recordingLogger().logger,
      mailer,
      digests,
      fence: sql`false`,
      scheduler: new ManualScheduler(() => t),
      send: { allowPrivate: true, connectTimeoutMs: 2_000, totalTimeoutMs: 2_000 },
    });
    await runOnce(outbox);
    expect(bodies).toEqual([]);
    expect((await row('fenced'))?.attempts).toBe(0);
  });

  it('a mailer that throws: the lane ends and says so, and idle() still settles', async () => {
    const t = Date.UTC(2026, 6, 6, 9, 7);
    await digest('thrown', t);
    const mailer: Mailer = { send: () => Promise.reject(new Error('socket closed')), close() {} };
    const { lines, logger } = recordingLogger();
    await runOnce(worker(new TestClock(t), mailer, { digests, logger }));
    expect(lines.filter((line) => line.level === 'error')).toMatchObject([
      { fields: { err: { message: 'socket closed' } }, message: 'daily digest delivery failed' },
    ]);
  });

  it('without a mailer, no digest is queued or sent', async () => {
    queued.length = 0;
    const t = Date.UTC(2026, 6, 6, 9, 7);
    await digest('ann', t);
    const outbox = new OutboxWorker({
      db: store.db,
      now: () => t,
      logger: recordingLogger().logger,
      mailer: null,
      digests,
      scheduler: new ManualScheduler(() => t),
      send: { allowPrivate: true, connectTimeoutMs: 2_000, totalTimeoutMs: 2_000 },
    });
    await runOnce(outbox);
    expect(queued).toEqual([]);
    expect((await row('ann'))?.attempts).toBe(0);
  });

  it('a failure worth retrying waits its back-off within 24 h, else the digest fails', async () => {
    const t = Date.UTC(2026, 6, 6, 9, 7);
    await digest('fresh', t);
    await digest('old', t - 24 * HOUR);
    // Its retry would fall exactly 24 h after it was made: still inside the window.
    await digest('edge', t + 22_500 - 24 * HOUR);
    const { mailer } = recordingMailer({
      status: 451,
      retryAfterMs: null,
      durationMs: 1,
      error: 'answered 451',
      retryable: true,
    });
    const { lines, logger } = recordingLogger();
    await runOnce(worker(new TestClock(t), mailer, { digests, logger }));
    // retryDelay(1, null, 0.5): 30 s, jittered over its upper half at 0.5: 22.5 s.
    expect(await row('fresh')).toMatchObject({ state: 'pending', attempts: 1 });
    expect((await row('fresh'))?.nextAttemptAt.getTime()).toBe(t + 22_500);
    expect(await row('edge')).toMatchObject({ state: 'pending', attempts: 1 });
    expect(await row('old')).toMatchObject({
      state: 'failed',
      attempts: 1,
      lastError: 'answered 451',
    });
    expect(lines).toContainEqual({
      level: 'info',
      fields: { delivery: 'digest_old', channel: 'digest', attempt: 1, state: 'failed' },
      message: 'daily digest delivery failed',
    });
  });

  it('a failure not worth retrying fails at once', async () => {
    const t = Date.UTC(2026, 6, 6, 9, 7);
    await digest('bounced', t);
    const { mailer } = recordingMailer({
      status: 550,
      retryAfterMs: null,
      durationMs: 1,
      error: 'answered 550',
      retryable: false,
    });
    await runOnce(worker(new TestClock(t), mailer, { digests }));
    expect(await row('bounced')).toMatchObject({ state: 'failed', attempts: 1 });
  });
});

/** One run, leaving the worker's next wake-up on its scheduler. */
async function runOnceKeepingSchedule(outbox: OutboxWorker): Promise<void> {
  outbox.start();
  await outbox.idle();
}
