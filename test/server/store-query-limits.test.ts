import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/server/config.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import {
  StoreQuestionLimiter,
  type StoreQuestionLimits,
} from '../../src/server/store-question-limit.js';
import { openAppStore } from '../helpers/history-store.js';
import { startHistoryStack, type HistoryStack } from '../helpers/history-stack.js';
import { testConfig } from '../helpers/test-config.js';

/*
 * Issue 18, point 6: history and event-archive questions are answered from the store (no
 * upstream request, so the upstream miss limits never count them); they are limited per client
 * and in how many run at once, so one client's flood cannot starve everyone's cached answers.
 */
let store: HistoryStore;
let stack: HistoryStack;
const START = Date.UTC(2026, 5, 1, 12);
const PER_MINUTE = 3;
const IN_FLIGHT = 2;
const QUEUE = 4;

beforeAll(async () => {
  store = await openAppStore();
  stack = await startHistoryStack(store, {
    start: START,
    config: {
      // Loopback (inject's address) is the trusted proxy: X-Forwarded-For names each client.
      access: { ...testConfig().access, trustedProxyAddresses: ['127.0.0.1'] },
      history: {
        storeQuestions: {
          queriesPerMinute: PER_MINUTE,
          queriesInFlight: IN_FLIGHT,
          queryQueue: QUEUE,
        },
      },
    },
  });
  await stack.nextBatch();
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await store?.close();
});

const ask = (url: string, client: string) =>
  stack.app.inject({ method: 'GET', url, headers: { 'x-forwarded-for': client } });

/** An event-archive question no earlier one asked (memoised answers never reach the store). */
let asked = 0;
const fresh = (): string =>
  `/api/events?to=${new Date(START - 86_400_000 - ++asked * 1000).toISOString()}`;
/** A range of the global series no earlier question asked (sliced from the held series). */
const freshRange = (): string =>
  `/api/history/global?from=${new Date(START - 86_400_000 - ++asked * 1000).toISOString()}`;

/** The answer side's limits, out of the way of a test of store queries. */
const GENEROUS: StoreQuestionLimits = {
  perMinute: 100_000,
  perClientInFlight: 8,
  perClientQueue: 1000,
  inFlight: 8,
  queriesPerMinute: 100_000,
  queriesInFlight: 8,
  queryQueue: 1000,
};

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((done) => setImmediate(done));
}

describe('store queries per client', () => {
  it('a client over its rate gets 429 with Retry-After and words; another client is served', async () => {
    for (let i = 0; i < PER_MINUTE; i++) {
      expect((await ask(fresh(), '10.0.0.1')).statusCode).toBe(200);
    }
    const refused = await ask(fresh(), '10.0.0.1');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.json()).toMatchObject({
      ok: false,
      error: expect.stringMatching(/too many history or event-archive questions/i),
    });
    // The same client's memoised answer costs no query and is never limited.
    expect((await ask(`/api/changes?since=previous`, '10.0.0.2')).statusCode).toBe(200);
    expect((await ask(`/api/changes?since=previous`, '10.0.0.1')).statusCode).toBe(200);
    // So does any range of a series already held: it is sliced in memory.
    expect((await ask(freshRange(), '10.0.0.2')).statusCode).toBe(200);
    expect((await ask(freshRange(), '10.0.0.1')).statusCode).toBe(200);
    // Another client still has its own allowance.
    expect((await ask(fresh(), '10.0.0.3')).statusCode).toBe(200);
    // A minute later the first client is served again.
    stack.clock.set(stack.clock.t + 61_000);
    expect((await ask(fresh(), '10.0.0.1')).statusCode).toBe(200);
  });
});

describe('store queries in flight', () => {
  it(`never more than ${IN_FLIGHT} run at once; beyond the queue, 503 with Retry-After`, async () => {
    // Counted where the store is called, independently of the limiter; held until released.
    let running = 0;
    let peak = 0;
    let open = (): void => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const original = store.events.bind(store);
    store.events = async (...args) => {
      running += 1;
      peak = Math.max(peak, running);
      try {
        await gate;
        return await original(...args);
      } finally {
        running -= 1;
      }
    };
    try {
      const total = IN_FLIGHT + QUEUE + 6;
      const settled: number[] = [];
      const answers = Array.from({ length: total }, (_, i) =>
        // Distinct clients and questions: only the bound in flight and the queue apply.
        ask(
          `/api/events?iso=UKR&to=2026-01-01T00:00:${String(i).padStart(2, '0')}Z`,
          `10.1.0.${i}`,
        ).then((response) => {
          settled.push(response.statusCode);
          return response;
        }),
      );
      // The slots are full and the queue too: everyone else has been answered already.
      await until(
        () =>
          running > IN_FLIGHT ||
          (running === IN_FLIGHT && settled.length === total - IN_FLIGHT - QUEUE),
      );
      expect(running).toBe(IN_FLIGHT);
      expect(settled.every((status) => status === 503)).toBe(true);
      open();
      const responses = await Promise.all(answers);
      expect(peak).toBe(IN_FLIGHT);
      expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(IN_FLIGHT + QUEUE);
      const busy = responses.filter((r) => r.statusCode === 503);
      expect(busy).toHaveLength(total - IN_FLIGHT - QUEUE);
      expect(busy[0]?.headers['retry-after']).toBe('1');
      expect(busy[0]?.json()).toMatchObject({
        ok: false,
        error: expect.stringMatching(/history store is busy/),
      });
      // A refused question did not count against its client's rate: it may still ask its share.
      const refusedClient = `10.1.0.${responses.findIndex((r) => r.statusCode === 503)}`;
      for (let i = 0; i < PER_MINUTE; i++) {
        expect((await ask(fresh(), refusedClient)).statusCode).toBe(200);
      }
    } finally {
      open();
      store.events = original;
    }
  });
});

describe('store query slots', () => {
  it('a waiting query starts on a later turn of the event loop, not in the same microtask run', async () => {
    const limiter = new StoreQuestionLimiter(
      { ...GENEROUS, queriesPerMinute: 10, queriesInFlight: 1, queryQueue: 1 },
      () => 0,
    );
    const releaseFirst = await limiter.enterQuery('a');
    let second = false;
    void limiter.enterQuery('b').then(() => {
      second = true;
    });
    releaseFirst();
    // Every microtask queued so far runs before this loop ends; sockets have had no turn yet.
    for (let i = 0; i < 20; i++) await Promise.resolve();
    expect(second).toBe(false);
    await new Promise((done) => setImmediate(done));
    await until(() => second);
    expect(limiter.queriesRunning).toBe(1);
  });
});

describe('store query settings', () => {
  it('are whole numbers in range, refused in words naming the variable', () => {
    const config = parseConfig({});
    expect(config.history?.storeQuestions).toMatchObject({
      queriesPerMinute: 60,
      queriesInFlight: 2,
      queryQueue: 50,
    });
    expect(() => parseConfig({ STORE_QUERIES_IN_FLIGHT: '0' })).toThrow(ConfigError);
    expect(() => parseConfig({ STORE_QUERIES_PER_MINUTE: 'lots' })).toThrow(
      /STORE_QUERIES_PER_MINUTE must be a whole number from 1 to 100000/,
    );
    expect(parseConfig({ STORE_QUERY_QUEUE: '0' }).history?.storeQuestions?.queryQueue).toBe(0);
  });
});
