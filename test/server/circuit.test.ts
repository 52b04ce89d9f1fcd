import { afterEach, describe, expect, it } from 'vitest';
import { get, startTestStack } from '../helpers/bff.js';
import { MINUTE, type TestClock } from '../helpers/clock.js';
import type { Stack } from '../helpers/stack.js';

// A failing upstream is asked by one probe at a time, shared by every resource.

let stack: Stack & { clock: TestClock };
afterEach(async () => {
  await stack.close();
});

const VIEWS = [
  '/api/v1/hotspots',
  '/api/v1/hotspots?include=events',
  '/api/countries',
  '/api/v1/country/UKR',
  '/api/v1/export?format=csv',
];
/** The per-client limits are not what is tested here: let one client spend the whole key. */
const ONE_CLIENT = { clientBudgetSharePercent: 100, clientMissesPerMinute: 10_000 };

/** One person polling every view every `everyMs` for `forMs`; returns the statuses seen. */
async function poll(everyMs: number, forMs: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let t = 0; t <= forMs; t += everyMs) {
    for (const view of VIEWS) statuses.push((await get(stack, view)).statusCode);
    stack.clock.advance(everyMs);
  }
  return statuses;
}

describe('circuit breaker', () => {
  it('malformed answers (still charged): five views polled for 6 minutes cost a few probes', async () => {
    stack = await startTestStack({
      demo: { faults: { malformedRate: 1 } },
      config: { data: ONE_CLIENT },
    });
    const statuses = await poll(30_000, 6 * MINUTE);
    expect(statuses.every((s) => s === 502 || s === 503)).toBe(true);
    // 1 + probes after 5, 10, 20, 40, 80 s of waiting (doubling) fit in 6 minutes; was 35.
    expect(stack.upstream.requestCount()).toBeLessThanOrEqual(7);
    expect(stack.upstream.requestCount()).toBeGreaterThanOrEqual(4);
  });

  it('a cold start during an outage: retries once, then single probes', async () => {
    stack = await startTestStack({
      demo: { faults: { outage: true } },
      config: { data: ONE_CLIENT },
    });
    const statuses = await poll(10_000, 160_000);
    expect(statuses.every((s) => s === 503)).toBe(true);
    // 3 attempts of the first request, then one probe per opening; was 45 in 160 s.
    expect(stack.upstream.requestCount()).toBeLessThanOrEqual(9);

    // Recovery: the next probe closes the circuit and every view is served again.
    stack.upstream.setFaults({});
    stack.clock.advance(5 * MINUTE);
    for (const view of VIEWS) expect((await get(stack, view)).statusCode).toBe(200);
  });

  it('while one request retries a failure, other resources send nothing', async () => {
    stack = await startTestStack({
      demo: { faults: { outage: true, latencyMs: 50 } },
      config: { data: ONE_CLIENT },
    });
    const answers = await Promise.all(VIEWS.map((view) => get(stack, view)));
    expect(answers.every((a) => a.statusCode === 503)).toBe(true);
    // The first to fail keeps its retries (3 attempts); the other four were refused unsent, or
    // had already sent their first attempt when the first failure came back.
    expect(stack.upstream.requestCount()).toBeLessThanOrEqual(3 + 4);
    const before = stack.upstream.requestCount();
    await Promise.all(VIEWS.map((view) => get(stack, view)));
    expect(stack.upstream.requestCount()).toBe(before);
  });
});
