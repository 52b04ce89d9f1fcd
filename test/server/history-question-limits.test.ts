import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/server/config.js';
import { StoreQuestionLimiter } from '../../src/server/store-question-limit.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { openAppStore } from '../helpers/history-store.js';
import { startHistoryStack, type HistoryStack } from '../helpers/history-stack.js';
import { testConfig } from '../helpers/test-config.js';

/*
 * Issue 18, point 6: every history and event-archive question, answered from what the BFF holds
 * or from the store, counts against its client's budget and waits its turn; one client's flood
 * neither spends another's budget nor pushes another's question to the back of its queue.
 * Over real HTTP on loopback (127.0.0.1 is the trusted proxy: X-Forwarded-For names a client).
 */
/** The store-query side's limits, out of the way of a test of questions. */
const QUERIES = { queriesPerMinute: 100_000, queriesInFlight: 8, queryQueue: 1000 };

let store: HistoryStore;
let stack: HistoryStack;
let base: string;
const START = Date.UTC(2026, 5, 1, 12);
const BUDGET = 6;
const QUEUE = 3;

beforeAll(async () => {
  store = await openAppStore();
  stack = await startHistoryStack(store, {
    start: START,
    config: {
      access: { ...testConfig().access, trustedProxyAddresses: ['127.0.0.1'] },
      history: {
        storeQuestions: {
          perMinute: BUDGET,
          perClientInFlight: 1,
          perClientQueue: QUEUE,
          inFlight: 1,
        },
      },
    },
  });
  await stack.nextBatch();
  base = await stack.app.listen({ host: '127.0.0.1', port: 0 });
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await store?.close();
});

// Identity: the order answers finish in is the order they were let in, with no compression
// of bodies of different sizes (every JSON answer over 1 KB is compressed when asked) between.
const ask = (path: string, client: string) =>
  fetch(base + path, { headers: { 'x-forwarded-for': client, 'accept-encoding': 'identity' } });

let asked = 0;
/** A range of the global series no earlier question asked: sliced from the held series. */
const heldRange = (): string =>
  `/api/history/global?from=${new Date(START - 86_400_000 - ++asked * 1000).toISOString()}`;
/** An event-archive question no earlier one asked: it reads the store. */
const freshEvents = (): string =>
  `/api/events?to=${new Date(START - 86_400_000 - ++asked * 1000).toISOString()}`;

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((done) => setTimeout(done, 5));
}

describe('history questions per client', () => {
  it('counts answers from what is held too; past the budget a 429 says what and when', async () => {
    // The series is read once; every later range is a slice of it, and still counted.
    expect((await ask(heldRange(), '10.2.0.1')).status).toBe(200);
    for (let i = 1; i < BUDGET; i++) {
      expect((await ask(heldRange(), '10.2.0.1')).status).toBe(200);
    }
    const refused = await ask(heldRange(), '10.2.0.1');
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await refused.json()).toEqual({
      ok: false,
      error: `Too many history or event-archive answers for this client: its budget of ${BUDGET} units a minute (one unit per 64 KB answered) is used up; ask again in ${retryAfter} s (cached data stays available)`,
      retry_after_seconds: retryAfter,
    });
    // Another client has its own budget.
    expect((await ask(heldRange(), '10.2.0.2')).status).toBe(200);
    // The budget refills with time: after Retry-After the first client is served again.
    stack.clock.set(stack.clock.t + retryAfter * 1000);
    expect((await ask(heldRange(), '10.2.0.1')).status).toBe(200);
  });
});

describe('a flood from one client', () => {
  it("waits in its own queue while another client's questions and cached answers go first", async () => {
    // The first question reads the store and is held there until the test lets it go.
    let holding = 0;
    let open = (): void => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const original = store.events.bind(store);
    store.events = async (...args) => {
      holding += 1;
      await gate;
      return original(...args);
    };
    try {
      stack.clock.set(stack.clock.t + 120_000);
      const finished: string[] = [];
      const track = (name: string, answer: Promise<Response>) =>
        answer.then(async (response) => {
          await response.arrayBuffer();
          finished.push(`${name}:${response.status}`);
          return response;
        });
      // The flooding client: one question answered at once, QUEUE waiting, one more refused.
      const flood = [track('A1', ask(freshEvents(), '10.3.0.1'))];
      await until(() => holding === 1);
      for (let i = 2; i <= QUEUE + 1; i++) flood.push(track(`A${i}`, ask(heldRange(), '10.3.0.1')));
      const overflow = await ask(heldRange(), '10.3.0.1');
      expect(overflow.status).toBe(429);
      expect(overflow.headers.get('retry-after')).toBe('1');
      expect(await overflow.json()).toEqual({
        ok: false,
        error: `Too many history or event-archive questions at once from this client (at most 1 answered and ${QUEUE} waiting); ask again in 1 s, after an answer arrives`,
        retry_after_seconds: 1,
      });
      // Another client's cached answer (no history question) is served while the flood waits.
      const cheap = await ask('/api/status', '10.3.0.2');
      expect(cheap.status).toBe(200);
      expect(finished).toEqual([]);
      // Another client's history question arrives last, behind the flooder's whole queue.
      const other = track('B1', ask(heldRange(), '10.3.0.2'));
      await until(() => stack.bff.historyQuestionsWaiting() === QUEUE + 1);
      open();
      await Promise.all([...flood, other]);
      // Clients take turns: B1 goes after the flooder's next question, not after all of them.
      expect(finished).toEqual(['A1:200', 'A2:200', 'B1:200', 'A3:200', 'A4:200']);
    } finally {
      open();
      store.events = original;
    }
  });
});

describe('the cost of an answer', () => {
  it('is one unit per started 64 KB, so big answers spend the budget sooner', async () => {
    const limiter = new StoreQuestionLimiter(
      { ...QUERIES, perMinute: 10, perClientInFlight: 1, perClientQueue: 0, inFlight: 1 },
      () => 0,
    );
    // 10 units: a 200,000-character answer costs 4, 65,537 characters 2: the fourth question is refused.
    (await limiter.admit('a')).done(200_000);
    (await limiter.admit('a')).done(200_000);
    (await limiter.admit('a')).done(65_537);
    await expect(limiter.admit('a')).rejects.toMatchObject({ status: 429 });
    // Small answers: one unit each.
    for (let i = 0; i < 10; i++) (await limiter.admit('b')).done(100);
    await expect(limiter.admit('b')).rejects.toMatchObject({ status: 429 });
  });
});

describe('a waiting question', () => {
  it('starts on a later turn of the event loop, so sockets are read between two answers', async () => {
    const limiter = new StoreQuestionLimiter(
      { ...QUERIES, perMinute: 10, perClientInFlight: 1, perClientQueue: 1, inFlight: 1 },
      () => 0,
    );
    const first = await limiter.admit('a');
    let second = false;
    void limiter.admit('b').then(() => {
      second = true;
    });
    first.done(100);
    // Every microtask queued so far runs before this loop ends; sockets have had no turn yet.
    for (let i = 0; i < 20; i++) await Promise.resolve();
    expect(second).toBe(false);
    await until(() => second);
    expect(limiter.running).toBe(1);
  });

  it('starts on a later turn even with every slot free (a held answer awaits nothing)', async () => {
    const limiter = new StoreQuestionLimiter(
      { ...QUERIES, perMinute: 10, perClientInFlight: 1, perClientQueue: 1, inFlight: 1 },
      () => 0,
    );
    let started = false;
    void limiter.admit('a').then(() => {
      started = true;
    });
    for (let i = 0; i < 20; i++) await Promise.resolve();
    expect(started).toBe(false);
    await until(() => started);
  });
});

describe('history question settings', () => {
  it('are whole numbers in range, refused in words naming the variable', () => {
    expect(parseConfig({}).history?.storeQuestions).toMatchObject({
      perMinute: 120,
      perClientInFlight: 2,
      perClientQueue: 8,
      inFlight: 2,
    });
    expect(() => parseConfig({ HISTORY_QUESTIONS_IN_FLIGHT: '0' })).toThrow(ConfigError);
    expect(() => parseConfig({ HISTORY_COST_PER_MINUTE: 'lots' })).toThrow(
      /HISTORY_COST_PER_MINUTE must be a whole number from 1 to 1000000/,
    );
  });
});
