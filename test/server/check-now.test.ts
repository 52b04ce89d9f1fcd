import { afterEach, describe, expect, it } from 'vitest';
import { MINUTE, type TestClock } from '../helpers/clock.js';
import { get, startTestStack } from '../helpers/bff.js';
import type { Stack } from '../helpers/stack.js';

/*
 * "Check now" (issue 19, point 13): a person may ask for a new batch before the next scheduled
 * check, but everyone together gets at most one probe per five minutes, and it counts as
 * background work against the budget.
 */
let stack: Stack & { clock: TestClock };
afterEach(async () => {
  await stack.close();
});

const checkNow = () => stack.app.inject({ method: 'POST', url: '/api/status/check' });

describe('POST /api/status/check', () => {
  it('probes once, then refuses inside five minutes for everyone, saying when', async () => {
    stack = await startTestStack();
    await get(stack, '/api/v1/hotspots');
    expect(stack.upstream.requestCount()).toBe(1);

    // Just after the hotspot list was fetched, a check is refused: nothing new could be known.
    const early = await checkNow();
    expect(early.statusCode).toBe(429);
    expect(early.headers['retry-after']).toBe('300');
    expect(early.json()).toEqual({
      ok: false,
      error: expect.stringMatching(
        /^The data service was checked for a new batch in the last 5 minutes; ask again in 5 min$/,
      ),
      retry_after_seconds: 300,
    });

    stack.clock.advance(5 * MINUTE - 1000);
    const almost = await checkNow();
    expect(almost.statusCode).toBe(429);
    expect(almost.headers['retry-after']).toBe('1');
    expect(almost.json().error).toMatch(/ask again in 1 s$/);

    stack.clock.advance(1000);
    const presses = await Promise.all(Array.from({ length: 20 }, () => checkNow()));
    const accepted = presses.filter((r) => r.statusCode === 200);
    // The first press starts the probe; the rest join it (one request) or are told to wait.
    expect(accepted.length).toBeGreaterThanOrEqual(1);
    expect(accepted[0]?.json()).toEqual({ ok: true, as_of: expect.any(String) });
    expect(stack.upstream.requestCount()).toBe(2);
    expect(stack.upstream.requestLog().at(-1)?.path).toBe('/api/v1/hotspots');

    // The probe confirmed the batch: the next press waits five minutes from it.
    const after = await checkNow();
    expect(after.statusCode).toBe(429);
    expect(stack.upstream.requestCount()).toBe(2);
  });

  it('says in words when the data service cannot be checked', async () => {
    stack = await startTestStack();
    await get(stack, '/api/v1/hotspots');
    stack.clock.advance(6 * MINUTE);
    stack.upstream.setFaults({ outage: true });
    const pressed = await checkNow();
    expect(pressed.statusCode).toBe(503);
    expect(pressed.json()).toEqual({
      ok: false,
      error: expect.stringMatching(/^The data service could not be checked: /),
    });
  });

  it('a new batch found by the check shows in /api/status at once', async () => {
    stack = await startTestStack();
    await get(stack, '/api/v1/hotspots');
    const before = (await get(stack, '/api/status')).json().as_of as string;
    // The next batch is published (10:00 or 03:00 UTC) well before the scheduled re-check.
    stack.clock.advance(13 * 60 * MINUTE);
    // The answer comes when the probe has answered, with the batch it found.
    const pressed = await checkNow();
    expect(pressed.statusCode).toBe(200);
    const found = pressed.json().as_of as string;
    expect(Date.parse(found)).toBeGreaterThan(Date.parse(before));
    expect((await get(stack, '/api/status')).json().as_of).toBe(found);
  });
});
