import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  changesResponseSchema,
  countryHistoryResponseSchema,
  eventsResponseSchema,
  globalHistoryResponseSchema,
} from '../../src/shared/history-api.js';
import { statusResponseSchema } from '../../src/shared/bff-api.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { openAppStore } from '../helpers/history-store.js';
import { startHistoryStack, type HistoryStack } from '../helpers/history-stack.js';

/*
 * The history API over three recorded batches: shapes as the shared contract says, and a 400
 * table per route, each answer checked to have cost no upstream request.
 */
let store: HistoryStore;
let stack: HistoryStack;
const START = Date.UTC(2026, 5, 1, 12);

beforeAll(async () => {
  store = await openAppStore(365);
  stack = await startHistoryStack(store, { start: START });
  await stack.nextBatch();
  await stack.nextBatch();
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await store?.close();
});

async function get(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const before = stack.demo.requestCount();
  const response = await stack.app.inject({ method: 'GET', url });
  await stack.bff.upstreamIdle();
  expect(stack.demo.requestCount(), `${url} asked the upstream`).toBe(before);
  return { status: response.statusCode, body: response.json() };
}

describe('history API', () => {
  it('global history: one point per batch, oldest first', async () => {
    const { status, body } = await get('/api/history/global');
    expect(status).toBe(200);
    const parsed = globalHistoryResponseSchema.parse(body);
    const recorded = parsed.points.filter((p) => p.tier_counts && p.as_of >= '2026-06-01');
    expect(recorded.length).toBeGreaterThanOrEqual(3);
    expect(parsed.coverage.batches).toBe(parsed.points.length);
    expect(parsed.points.map((p) => p.as_of)).toEqual(
      [...parsed.points.map((p) => p.as_of)].sort(),
    );
  });

  it('country history: points with categories, first and last seen', async () => {
    const { status, body } = await get('/api/history/country/ukr');
    expect(status).toBe(200);
    const parsed = countryHistoryResponseSchema.parse(body);
    expect(parsed.iso).toBe('UKR');
    expect(parsed.points).toHaveLength(3);
    expect(parsed.first_seen).toBe(parsed.points[0]?.as_of);
    expect(parsed.last_seen).toBe(parsed.points[2]?.as_of);
    expect(Object.keys(parsed.points[0]?.categories ?? {})).toHaveLength(10);
    const ranged = countryHistoryResponseSchema.parse(
      (await get(`/api/history/country/UKR?from=${parsed.points[1]?.as_of}`)).body,
    );
    expect(ranged.points.map((p) => p.as_of)).toEqual(parsed.points.slice(1).map((p) => p.as_of));
    expect(ranged.first_seen).toBe(parsed.first_seen);
  });

  it('changes since the previous batch: every country, with deltas that add up', async () => {
    const { status, body } = await get('/api/changes');
    expect(status).toBe(200);
    const parsed = changesResponseSchema.parse(body);
    expect(parsed.since).toBe('previous');
    expect((parsed.from_batch?.as_of ?? 'z') < (parsed.to_batch?.as_of ?? '')).toBe(true);
    expect(parsed.countries.length).toBeGreaterThan(150);
    for (const change of parsed.countries.slice(0, 10)) {
      const { then, now } = change;
      if (then.risk !== null && now.risk !== null) {
        expect(change.delta_risk).toBeCloseTo(now.risk - then.risk, 1);
      }
      expect(change.top_categories.length).toBeLessThanOrEqual(3);
    }
    const sorted = parsed.countries.map((c) => Math.abs(c.delta_risk ?? 0));
    expect(sorted).toEqual([...sorted].sort((a, b) => b - a));
    // No batch 30 days before the newest: nothing to compare against, said plainly.
    const month = changesResponseSchema.parse((await get('/api/changes?since=30d')).body);
    expect(month.from_batch).toBeNull();
    expect(month.to_batch?.as_of).toBe(parsed.to_batch?.as_of);
    expect(month.countries).toEqual([]);
    const atStart = changesResponseSchema.parse(
      (await get(`/api/changes?since=${new Date(START).toISOString()}`)).body,
    );
    expect((atStart.from_batch?.as_of ?? 'z') < (parsed.from_batch?.as_of ?? '')).toBe(true);
  });

  it('events: newest first, paged with a cursor to the end', async () => {
    const first = eventsResponseSchema.parse((await get('/api/events?iso=UKR&limit=5')).body);
    expect(first.events).toHaveLength(5);
    expect(first.events.every((e) => e.iso === 'UKR')).toBe(true);
    const seen = first.events.map((e) => `${e.ts}|${e.headline}`);
    let cursor = first.next_cursor;
    let pages = 1;
    while (cursor) {
      const page = eventsResponseSchema.parse(
        (await get(`/api/events?iso=UKR&limit=5&cursor=${cursor}`)).body,
      );
      seen.push(...page.events.map((e) => `${e.ts}|${e.headline}`));
      cursor = page.next_cursor;
      pages += 1;
    }
    expect(pages).toBeGreaterThan(1);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual([...seen].sort().reverse());
  });

  it('status reports the coverage', async () => {
    const body = statusResponseSchema.parse((await get('/api/status')).body);
    expect(body.history?.batches).toBeGreaterThanOrEqual(3);
    expect(body.history?.demo_seeded).toBe(false);
  });
});

const BAD: Array<[string, RegExp]> = [
  ['/api/history/global?from=yesterday', /from must be an ISO 8601 time/],
  ['/api/history/global?to=2026-13-45', /to must be an ISO 8601 time/],
  ['/api/history/global?from=2026-06-02&to=2026-06-01', /from .* is after to/],
  ['/api/history/global?from=2020-01-01', /from is before the history kept/],
  ['/api/history/global?form=2026-06-01', /Unknown query parameter "form"/],
  ['/api/history/global?from=2026-06-01&from=2026-06-02', /from was given more than once/],
  ['/api/history/country/UK', /iso must be a three-letter/],
  ['/api/history/country/', /iso is missing/],
  ['/api/history/country/UKR?to=soon', /to must be an ISO 8601 time/],
  ['/api/history/country/UKR?limit=5', /Unknown query parameter "limit"/],
  ['/api/changes?since=1w', /since must be previous, 24h, 7d, 30d or an ISO 8601 time/],
  ['/api/changes?since=2019-01-01T00:00:00Z', /since is before the history kept/],
  ['/api/changes?until=7d', /Unknown query parameter "until"/],
  ['/api/events?limit=0', /limit must be a whole number from 1 to 100/],
  ['/api/events?limit=101', /limit must be a whole number from 1 to 100/],
  ['/api/events?iso=12', /iso must be a three-letter/],
  ['/api/events?breaking=maybe', /breaking must be true or false/],
  ['/api/events?role=LOCUS!', /role must be a role label/],
  ['/api/events?cursor=not-ours', /cursor is not one this server gave out/],
  ['/api/events?q=', /q must be 1 to 100 characters/],
  ['/api/events?from=2026-06-03&to=2026-06-01', /from .* is after to/],
  ['/api/events?sort=asc', /Unknown query parameter "sort"/],
];

describe('history API refuses bad input with 400, spending nothing', () => {
  it.each(BAD)('%s', async (url, message) => {
    const { status, body } = await get(url);
    expect(status).toBe(400);
    expect(body.ok).toBe(false);
    expect(String(body.error)).toMatch(message);
  });
});
