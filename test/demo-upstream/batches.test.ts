import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  documentedBatchClock,
  fastBatchClock,
  yesterdayIndex,
} from '../../src/demo-upstream/batches.js';
import { T0, startHarness, type Harness } from '../helpers/demo-harness.js';

const at = (iso: string): number => Date.parse(iso);
const round2 = (value: number): number => Math.round(value * 100) / 100;

interface Row {
  iso: string;
  risk: number;
  active: number;
}

describe('demo upstream: batch clock', () => {
  it.each([
    ['2026-01-15T02:59:59.999Z', '2026-01-14T10:00:00.000Z'],
    ['2026-01-15T03:00:00.000Z', '2026-01-15T03:00:00.000Z'],
    ['2026-01-15T09:59:59.999Z', '2026-01-15T03:00:00.000Z'],
    ['2026-01-15T10:00:00.000Z', '2026-01-15T10:00:00.000Z'],
    ['2026-01-15T23:59:59.999Z', '2026-01-15T10:00:00.000Z'],
    ['1970-01-01T00:00:00.000Z', '1969-12-31T10:00:00.000Z'],
  ])('runs batches at 03:00 and 10:00 UTC: at %s the batch of %s is in force', (now, batch) => {
    const clock = documentedBatchClock;
    const index = clock.indexAt(at(now));
    expect(new Date(clock.timeOf(index)).toISOString()).toBe(batch);
    expect(clock.indexAt(clock.timeOf(index))).toBe(index);
    expect(clock.timeOf(index + 1)).toBeGreaterThan(at(now));
  });

  it('finds yesterday two batches back on the documented schedule, and by time on the fast one', () => {
    const index = documentedBatchClock.indexAt(T0);
    expect(yesterdayIndex(documentedBatchClock, index)).toBe(index - 2);
    const fast = fastBatchClock(60_000);
    expect(yesterdayIndex(fast, 100_000)).toBe(100_000 - 24 * 60);
    expect(() => fastBatchClock(0)).toThrow(/positive/);
  });
});

describe('demo upstream: deterministic, drifting batches', () => {
  let h: Harness;
  let twin: Harness;
  beforeAll(async () => {
    h = await startHarness({ tier: 'Custom' });
    twin = await startHarness({ tier: 'Custom' });
  });
  afterAll(async () => {
    await h.close();
    await twin.close();
  });

  const paths = [
    '/api/v1/hotspots?limit=50&include=categories,events',
    '/api/v1/country/UKR',
    '/api/v1/export',
    '/api/v1/export?format=json',
  ];

  it('answers byte-identical bodies for the same batch, from two separate servers', async () => {
    for (const path of paths) {
      const one = await (await h.get(path)).text();
      const other = await (await twin.get(path)).text();
      expect(other).toBe(one);
    }
  });

  it('answers byte-identical bodies at any time within the same batch', async () => {
    const before = await Promise.all(paths.map(async (path) => (await h.get(path)).text()));
    h.clock.now = at('2026-01-15T23:59:59.000Z');
    const later = await Promise.all(paths.map(async (path) => (await h.get(path)).text()));
    h.clock.now = T0;
    expect(later).toEqual(before);
  });

  async function exportAt(now: number) {
    h.clock.now = now;
    const body = (await h.getJson('/api/v1/export?format=json')).body;
    h.clock.now = T0;
    return body;
  }

  it('moves to a new batch at the next scheduled time, with drifted values and consistent deltas', async () => {
    const previous = await exportAt(at('2026-01-15T10:00:00.000Z'));
    const next = await exportAt(at('2026-01-16T03:00:00.000Z'));
    expect(previous.as_of).toBe('2026-01-15T10:00:00.000Z');
    expect(next.as_of).toBe('2026-01-16T03:00:00.000Z');
    const before = new Map<string, Row>(previous.countries.map((c: Row) => [c.iso, c]));
    let changed = 0;
    let totalMove = 0;
    for (const country of next.countries) {
      const old = before.get(country.iso);
      if (!old) throw new Error(`${country.iso} missing from the previous batch`);
      expect(country.delta_active).toBe(round2(country.active - old.active));
      expect(country.delta_headline).toBe(round2(country.risk - old.risk));
      if (country.risk !== old.risk) changed += 1;
      totalMove += Math.abs(country.risk - old.risk);
    }
    expect(changed).toBeGreaterThan(next.countries.length * 0.9);
    // Plausible drift: most countries move a little, not a reshuffle.
    expect(totalMove / next.countries.length).toBeGreaterThan(0.1);
    expect(totalMove / next.countries.length).toBeLessThan(4);
    const topBefore = previous.countries.slice(0, 10).map((c: { iso: string }) => c.iso);
    const topNow = next.countries.slice(0, 10).map((c: { iso: string }) => c.iso);
    expect(topNow.filter((iso: string) => topBefore.includes(iso)).length).toBeGreaterThanOrEqual(
      7,
    );
  });

  it('computes delta_vs_yesterday against the batch 24 hours earlier', async () => {
    const yesterday = await exportAt(at('2026-01-14T10:00:00.000Z'));
    const today = await exportAt(at('2026-01-15T10:00:00.000Z'));
    expect(today.global.delta_vs_yesterday).toBe(round2(today.global.ggri - yesterday.global.ggri));
    expect(today.feed_history[2]).toMatchObject({
      as_of: yesterday.as_of,
      ggri: yesterday.global.ggri,
    });
  });

  it('keeps a feed history of earlier batches, newest first, that agrees with those batches', async () => {
    const today = await exportAt(T0);
    const earlier = await exportAt(at('2026-01-15T03:00:00.000Z'));
    expect(today.feed_history[0].as_of).toBe(today.as_of);
    expect(today.feed_history[1]).toEqual(earlier.feed_history[0]);
    expect(today.feed_history[1].counts).toEqual(earlier.counts);
  });

  it('spreads risk plausibly over the tiers: few crit, more low, all within 0-95', async () => {
    const { countries, counts } = await exportAt(T0);
    expect(counts.crit).toBeGreaterThanOrEqual(3);
    expect(counts.crit).toBeLessThan(counts.high);
    expect(counts.high).toBeLessThan(counts.mod);
    expect(counts.mod).toBeLessThan(counts.low);
    for (const country of countries) {
      expect(country.risk).toBeGreaterThanOrEqual(0);
      expect(country.risk).toBeLessThanOrEqual(95);
      expect(Number.isInteger(country.confidence)).toBe(true);
      expect(country.confidence).toBeGreaterThanOrEqual(0);
      expect(country.confidence).toBeLessThanOrEqual(100);
    }
  });

  it('puts event times within the days before as_of, never after it', async () => {
    const { as_of: asOf, countries } = await exportAt(T0);
    for (const country of countries) {
      for (const event of country.events) {
        const ts = Date.parse(event.ts);
        expect(event.ts).toMatch(/\.\d{3}Z$/);
        expect(ts).toBeLessThanOrEqual(Date.parse(asOf));
        expect(ts).toBeGreaterThan(Date.parse(asOf) - 72 * 3_600_000);
      }
    }
  });
});

describe('demo upstream: the fast batch clock', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ batchIntervalMs: 10_000, start: T0 + 4_321 });
  });
  afterAll(() => h.close());

  it('starts a new batch every batchIntervalMs, with deltas against the batch before', async () => {
    const first = (await h.getJson('/api/v1/hotspots?limit=50')).body;
    expect(first.as_of).toBe(new Date(T0).toISOString());
    h.clock.now = T0 + 9_999;
    expect((await h.getJson('/api/v1/hotspots?limit=1')).body.as_of).toBe(first.as_of);
    h.clock.now = T0 + 10_000;
    const second = (await h.getJson('/api/v1/hotspots?limit=50')).body;
    expect(second.as_of).toBe(new Date(T0 + 10_000).toISOString());
    const before = new Map<string, Row>(first.hotspots.map((row: Row) => [row.iso, row]));
    let compared = 0;
    for (const row of second.hotspots) {
      const old = before.get(row.iso);
      if (!old) continue;
      compared += 1;
      expect(row.delta_active).toBe(round2(row.active - old.active));
      expect(row.delta_headline).toBe(round2(row.risk - old.risk));
    }
    expect(compared).toBeGreaterThan(40);
  });
});
