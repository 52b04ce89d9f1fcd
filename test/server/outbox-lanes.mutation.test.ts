import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Mailer } from '../../src/server/jobs/mailer.js';
import type { OutboxDeps, OutboxWorker } from '../../src/server/jobs/outbox-worker.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { insertDelivery, selectDelivery } from '../../src/server/store/outbox.js';
import { openAppStore } from '../helpers/history-store.js';
import { ManualScheduler } from '../helpers/manual-scheduler.js';
import { ACCEPTED, acceptingMailer, deliveryList, testOutboxWorker } from '../helpers/outbox.js';

/*
 * The outbox worker's lanes (jobs/outbox-worker.ts) against a receiver the test holds: with every
 * lane taken a run starts no other, the lanes in flight are left out of the look for the next
 * wake-up, stop() waits for the delivery under way and sends nothing after it, and an attempt's
 * time limit, well inside its claim, is cancelled once it has answered.
 */
const MINUTE = 60_000;
let store: HistoryStore;
let serial = 0;
// A store of its own for each case: what one case leaves pending is not another's to send.
beforeEach(async () => {
  store = await openAppStore();
}, 60_000);
afterEach(async () => {
  await store?.close();
});

/** A receiver that answers `/fast/…` at once and holds `/hold/…` until `release()`. */
async function heldReceiver() {
  const held: ServerResponse[] = [];
  let holding = true;
  const arrived: string[] = [];
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    request.on('end', () => {
      arrived.push(request.url!);
      if (holding && request.url!.startsWith('/hold/')) held.push(response);
      else response.end('ok');
      for (const w of waiters.filter((w) => arrived.length >= w.n)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    arrived,
    waitFor: (n: number) =>
      arrived.length >= n
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiters.push({ n, resolve })),
    /** Answers what is held, and from now on every request at once. */
    release: () => {
      holding = false;
      for (const response of held.splice(0)) response.end('ok');
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A scheduler that records each wake-up a run asks for; `wakes(n)` waits for the n-th. */
class WatchedScheduler extends ManualScheduler {
  readonly asked: number[] = [];
  readonly #waiters: Array<{ n: number; resolve: () => void }> = [];

  override at(at: number, task: () => void): () => void {
    this.asked.push(at);
    for (const w of this.#waiters.filter((w) => this.asked.length >= w.n)) {
      this.#waiters.splice(this.#waiters.indexOf(w), 1);
      w.resolve();
    }
    return super.at(at, task);
  }

  wakes(n: number): Promise<void> {
    return this.asked.length >= n
      ? Promise.resolve()
      : new Promise((resolve) => this.#waiters.push({ n, resolve }));
  }
}

function worker(t: number, extra: Partial<OutboxDeps>): OutboxWorker {
  return testOutboxWorker(store.db, () => t, extra);
}

function hookList(url: string | null): Promise<number> {
  return deliveryList(store.db, `Lanes ${(serial += 1)}`, url);
}

function queue(watchlistId: number, at: number, channel: 'webhook' | 'email' = 'webhook') {
  return insertDelivery(store.db, {
    messageId: `msg_lanes_${(serial += 1)}`,
    watchlistId,
    channel,
    body: JSON.stringify({ to: 'nobody-with-settings@example.com', n: serial }),
    state: 'pending',
    nextAttemptAt: new Date(at),
    createdAt: new Date(at),
  });
}

describe('the outbox worker’s lanes', () => {
  it('with every lane taken, a run starts no other endpoint and does not wake early for one', async () => {
    const receiver = await heldReceiver();
    const t = Date.UTC(2026, 7, 20, 8);
    try {
      // Oldest first: A and B take the two lanes and are held there; C and D wait.
      const a = await queue(await hookList(`${receiver.base}/hold/a`), t - 4000);
      const b = await queue(await hookList(`${receiver.base}/hold/b`), t - 3000);
      const c = await queue(await hookList(`${receiver.base}/hold/c`), t - 2000);
      const d = await queue(await hookList(`${receiver.base}/hold/d`), t - 1000);
      const scheduler = new WatchedScheduler(() => t);
      const outbox = worker(t, { endpointsAtOnce: 2, scheduler });
      outbox.start();
      await receiver.waitFor(2);
      await scheduler.wakes(1);
      // A run while both lanes are busy (as when something new is queued) has no lane to give.
      outbox.kick();
      await scheduler.wakes(2);
      // With every lane taken, the next lane to finish looks again: C and D, due already, do not
      // wake the worker (it would wake at once and spin with no lane to give them).
      expect(scheduler.asked).toEqual([t + 5 * MINUTE, t + 5 * MINUTE]);
      // Stopped now, a lane already started would still send its first delivery: none was.
      const stopping = outbox.stop();
      receiver.release();
      await stopping;
      expect(receiver.arrived.sort()).toEqual(['/hold/a', '/hold/b']);
      expect((await selectDelivery(store.db, a.messageId))?.state).toBe('delivered');
      expect((await selectDelivery(store.db, b.messageId))?.state).toBe('delivered');
      expect((await selectDelivery(store.db, c.messageId))?.attempts).toBe(0);
      expect((await selectDelivery(store.db, d.messageId))?.attempts).toBe(0);
    } finally {
      await receiver.close();
    }
  }, 30_000);

  it('an endpoint already in a lane does not bring the next wake-up forward', async () => {
    const receiver = await heldReceiver();
    const t = Date.UTC(2026, 7, 21, 8);
    try {
      await queue(await hookList(`${receiver.base}/hold/only`), t - 1000);
      const scheduler = new WatchedScheduler(() => t);
      const outbox = worker(t, { scheduler });
      outbox.start();
      // Its own lane is sending it: nothing else is due, so the worker sleeps the 5-minute poll
      // (not until the delivery's time, nor until its claim runs out).
      await scheduler.wakes(1);
      expect(scheduler.asked[0]).toBe(t + 5 * MINUTE);
      await receiver.waitFor(1);
      receiver.release();
      await outbox.idle();
      await outbox.stop();
    } finally {
      await receiver.close();
    }
  }, 30_000);

  it('stop() waits for the delivery under way, then sends nothing more', async () => {
    const t = Date.UTC(2026, 7, 22, 8);
    const sent = ACCEPTED;
    const calls: string[] = [];
    let started!: () => void;
    const firstStarted = new Promise<void>((resolve) => (started = resolve));
    let release!: () => void;
    // The first send is held until the test releases it; any later one answers at once.
    const mailer: Mailer = {
      send: (body) => {
        calls.push(body);
        if (calls.length > 1) return Promise.resolve(sent);
        started();
        return new Promise((resolve) => (release = () => resolve(sent)));
      },
      close() {},
    };
    const owner = await hookList(null);
    const first = await queue(owner, t - 2000, 'email');
    const second = await queue(owner, t - 1000, 'email');
    const outbox = worker(t, { mailer });
    outbox.start();
    await firstStarted;
    const stopping = outbox.stop();
    release();
    await stopping;
    // By the time stop() settles the first is recorded, and the second was never claimed.
    expect((await selectDelivery(store.db, first.messageId))?.state).toBe('delivered');
    expect(await selectDelivery(store.db, second.messageId)).toMatchObject({
      state: 'pending',
      attempts: 0,
      lockedUntil: null,
    });
    expect(calls).toHaveLength(1);
    outbox.kick();
    await outbox.idle();
    expect(calls).toHaveLength(1);
  }, 30_000);

  it('an attempt that answers in time leaves no timer running for its limit', async () => {
    const t = Date.UTC(2026, 7, 23, 8);
    const limitMs = 43_210; // distinctive: only the attempt's limit is set for this long
    const mailer = acceptingMailer;
    const mail = await queue(await hookList(null), t, 'email');
    const set = vi.spyOn(globalThis, 'setTimeout');
    const cleared = vi.spyOn(globalThis, 'clearTimeout');
    try {
      const outbox = worker(t, { mailer, attemptLimitMs: limitMs });
      outbox.start();
      await outbox.idle();
      await outbox.stop();
      expect((await selectDelivery(store.db, mail.messageId))?.state).toBe('delivered');
      const limits = set.mock.results.filter((_, i) => set.mock.calls[i]![1] === limitMs);
      expect(limits).toHaveLength(1);
      expect(cleared.mock.calls.map(([timer]) => timer)).toContain(limits[0]!.value);
    } finally {
      set.mockRestore();
      cleared.mockRestore();
    }
  });

  it('by default an attempt is given up well before its claim runs out', async () => {
    const t = Date.UTC(2026, 7, 24, 8);
    const set = vi.spyOn(globalThis, 'setTimeout');
    let limitMs: unknown = null;
    let started!: () => void;
    const sending = new Promise<void>((resolve) => (started = resolve));
    let release!: () => void;
    const mailer: Mailer = {
      send: () => {
        // The attempt's limit is the timer set just before the send (in the same turn).
        limitMs = set.mock.calls.at(-1)![1];
        started();
        return new Promise((resolve) => {
          release = () => resolve(ACCEPTED);
        });
      },
      close() {},
    };
    const mail = await queue(await hookList(null), t, 'email');
    try {
      const outbox = worker(t, { mailer });
      outbox.start();
      await sending;
      const claimedFor =
        (await selectDelivery(store.db, mail.messageId))!.lockedUntil!.getTime() - t;
      expect(claimedFor).toBe(2 * MINUTE);
      expect(limitMs).toBeLessThanOrEqual(claimedFor / 2);
      release();
      await outbox.idle();
      await outbox.stop();
    } finally {
      set.mockRestore();
    }
  });
});
