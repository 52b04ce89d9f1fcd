import { describe, expect, it } from 'vitest';
import type { DailyDigests } from '../../src/server/services/alerts/daily-digest.js';
import { insertDelivery } from '../../src/server/store/outbox.js';
import { openAppStore } from '../helpers/history-store.js';
import { ManualScheduler } from '../helpers/manual-scheduler.js';
import {
  acceptingMailer,
  deliveryList,
  recordingLogger,
  testOutboxWorker,
} from '../helpers/outbox.js';

/*
 * The outbox worker when something under it fails (jobs/outbox-worker.ts): a store that cannot
 * be read, digests that cannot be queued, a delivery that cannot be handled. Each failure is
 * logged in its own words with the error, the run goes on to its next step, and idle() settles.
 * Before this file no test reached these lines (Stryker: no coverage).
 */
const mailer = acceptingMailer;

describe('the outbox worker when what it uses fails', () => {
  it('a store that cannot be read: each step says so in its own words, and the run still ends', async () => {
    const store = await openAppStore();
    // Closed: every query now fails, as with a database that went away.
    await store.close();
    const t = Date.UTC(2026, 6, 7, 9, 7);
    const digests = {
      queueDue: () => Promise.reject(new Error('digests unreadable')),
    } as unknown as DailyDigests;
    const { lines, logger } = recordingLogger();
    const scheduler = new ManualScheduler(() => t);
    const outbox = testOutboxWorker(store.db, () => t, { logger, mailer, digests, scheduler });
    outbox.start();
    await outbox.idle();
    // The sending step, the digests' step, then the look for the next wake-up: none of them
    // stops the others, and the run itself does not fail (no "trying again soon" back-off).
    expect(lines.map((line) => [line.level, line.message])).toEqual([
      ['error', 'outbox run failed'],
      ['error', 'daily digests failed'],
      ['error', 'outbox run failed'],
    ]);
    expect(lines.every((line) => line.fields.err instanceof Error)).toBe(true);
    expect((lines[1]!.fields.err as Error).message).toBe('digests unreadable');
    // Still wakes on its own, at the 5-minute poll.
    expect(scheduler.nextAt()).toBe(t + 5 * 60_000);
    await outbox.stop();
  });

  it('a delivery that cannot be handled ends its lane with a log line; idle() settles', async () => {
    const store = await openAppStore();
    try {
      const t = Date.UTC(2026, 6, 7, 10);
      const list = await deliveryList(store.db, 'Unreadable mail', null);
      // An e-mail whose body is not JSON: reading its recipient throws inside the lane.
      await insertDelivery(store.db, {
        messageId: 'msg_failures_unreadable',
        watchlistId: list,
        channel: 'email',
        body: 'not json',
        state: 'pending',
        nextAttemptAt: new Date(t),
        createdAt: new Date(t),
      });
      const { lines, logger } = recordingLogger();
      const outbox = testOutboxWorker(store.db, () => t, { logger, mailer });
      outbox.start();
      await outbox.idle();
      const errors = lines.filter((line) => line.level === 'error');
      expect(errors.map((line) => line.message)).toEqual(['outbox delivery failed']);
      expect(errors[0]!.fields.err).toBeInstanceOf(SyntaxError);
      await outbox.stop();
    } finally {
      await store.close();
    }
  });
});
