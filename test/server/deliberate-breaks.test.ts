import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/server/logger.js';
import { get, startTestStack, upstreamRequestsDuring } from '../helpers/bff.js';
import { HOUR, MINUTE, type TestClock } from '../helpers/clock.js';
import type { Stack } from '../helpers/stack.js';

// Behaviour that one-line breaks used to slip past the whole suite (issue #10, "Tests that can
// fail"): each test here fails on its break.

let stack: (Stack & { clock: TestClock }) | null = null;
afterEach(async () => {
  await stack?.close();
  stack = null;
});

describe('pino redaction', () => {
  it('blanks credentials in anything logged, header bags included', () => {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => lines.push(line) });
    logger.info({ req: { headers: { authorization: 'Bearer s3cret-a', cookie: 'grd=s3cret-b' } } });
    logger.info({ headers: { authorization: 'Bearer s3cret-c' } }, 'upstream answered');
    logger.info({ upstream: { apiKey: 's3cret-d', token: 's3cret-e' } }, 'config');
    const text = lines.join('');
    expect(lines).toHaveLength(3);
    expect(text).toContain('[redacted]');
    expect(text).not.toMatch(/s3cret/);
  });
});

describe('tier filter answered from the unfiltered page', () => {
  it('exactly `limit` matches in the top 50 are enough: no upstream request; one fewer is not', async () => {
    stack = await startTestStack();
    const top = (await get(stack, '/api/v1/hotspots?limit=50')).json().hotspots as Array<{
      tier: string;
    }>;
    expect(top).toHaveLength(50);
    const counts = new Map<string, number>();
    for (const row of top) counts.set(row.tier, (counts.get(row.tier) ?? 0) + 1);
    const [tier, n] = [...counts].find(([, count]) => count > 0 && count < 50) ?? ['', 0];
    expect(n).toBeGreaterThan(0);
    const s = stack;
    expect(
      await upstreamRequestsDuring(s, () => get(s, `/api/v1/hotspots?tier=${tier}&limit=${n}`)),
    ).toBe(0);
    expect(
      await upstreamRequestsDuring(s, () => get(s, `/api/v1/hotspots?tier=${tier}&limit=${n + 1}`)),
    ).toBe(1);
  });
});

describe('batch re-confirmation', () => {
  it('a probe showing the same batch extends every entry of it (awaited with upstreamIdle)', async () => {
    stack = await startTestStack();
    const s = stack;
    await get(s, '/api/v1/hotspots');
    await get(s, '/api/v1/hotspots?include=events');
    s.clock.advance(31 * MINUTE);
    // Past its freshness: served, and one probe runs in the background.
    expect((await get(s, '/api/v1/hotspots?include=events')).headers['x-cache']).toBe('HIT');
    await s.bff.upstreamIdle();
    const confirmed = (await get(s, '/api/status')).json().last_checked_at;
    expect(Date.parse(confirmed)).toBe(s.clock.t);
    // Confirmed: the other entry of that batch is fresh again, nothing more is asked for.
    s.clock.advance(5 * MINUTE);
    const spent = await upstreamRequestsDuring(s, async () => {
      await get(s, '/api/v1/hotspots?include=events');
      await get(s, '/api/v1/hotspots');
      await s.bff.upstreamIdle();
    });
    expect(spent).toBe(0);
  });
});

describe('an outdated entry whose refetch fails', () => {
  it('is served STALE, saying a newer batch exists', async () => {
    stack = await startTestStack();
    const s = stack;
    expect((await get(s, '/api/v1/hotspots?include=events')).statusCode).toBe(200);
    expect((await get(s, '/api/v1/hotspots')).statusCode).toBe(200);
    // The next batch: the probe sees a newer as_of, so older entries are outdated.
    s.clock.advance(12 * HOUR);
    await get(s, '/api/v1/hotspots');
    await s.bff.upstreamIdle();
    await get(s, '/api/v1/hotspots');
    s.upstream.setFaults({ outage: true });
    const res = await get(s, '/api/v1/hotspots?include=events');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-cache']).toBe('STALE');
    expect(res.json().stale_reason).toMatch(/newer batch exists but could not be fetched/);
  });
});
