import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asOfCountriesResponseSchema,
  asOfCountryResponseSchema,
  asOfHotspotsResponseSchema,
  batchListResponseSchema,
} from '../../src/shared/batches-api.js';
import { changesResponseSchema } from '../../src/shared/history-api.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { openAppStore } from '../helpers/history-store.js';
import { startHistoryStack, type HistoryStack } from '../helpers/history-stack.js';

/*
 * `?as_of=` on what the overview and the country page read: the answers of a recorded batch,
 * from the store alone (each request here is checked to have cost no upstream request).
 */
let store: HistoryStore;
let stack: HistoryStack;
/** The recorded batches, oldest first: their times and ids. */
let batches: { id: string; as_of: string }[];

beforeAll(async () => {
  store = await openAppStore();
  stack = await startHistoryStack(store, { start: Date.UTC(2026, 5, 1, 12) });
  await stack.nextBatch();
  await stack.nextBatch();
  const list = batchListResponseSchema.parse((await stack.app.inject('/api/batches')).json());
  batches = [...list.batches].reverse();
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

const first = () => batches[0] ?? { id: '', as_of: '' };
const second = () => batches[1] ?? { id: '', as_of: '' };
/** A time after the first batch and before the second. */
const between = () => new Date(Date.parse(first().as_of) + 1000).toISOString();

describe('as of a recorded batch', () => {
  it('has batches recorded at different times whose numbers differ', () => {
    expect(batches.length).toBeGreaterThanOrEqual(2);
  });

  it('/api/countries: the batch at or before the time, its id, and its stored rows', async () => {
    const { status, body } = await get(`/api/countries?as_of=${between()}`);
    expect(status).toBe(200);
    const parsed = asOfCountriesResponseSchema.parse(body);
    expect(parsed).toMatchObject({ as_of: first().as_of, batch_id: first().id });
    const history = await store.countryHistory('UKR', { from: null, to: null });
    const then = history.points.find((p) => p.as_of === first().as_of);
    const now = history.points.find((p) => p.as_of === second().as_of);
    expect(then?.risk).not.toBe(now?.risk);
    expect(parsed.countries.find((c) => c.iso === 'UKR')?.risk).toBe(then?.risk);
    expect(parsed.count).toBe(parsed.countries.length);
  });

  it('/api/v1/hotspots: ranked by risk as recorded then, filtered and cut as asked', async () => {
    const { body } = await get(
      `/api/v1/hotspots?limit=5&as_of=${encodeURIComponent(first().as_of)}`,
    );
    const parsed = asOfHotspotsResponseSchema.parse(body);
    expect(parsed.batch_id).toBe(first().id);
    const all = asOfCountriesResponseSchema.parse(
      (await get(`/api/countries?as_of=${first().as_of}`)).body,
    );
    const ranked = [...all.countries].sort((a, b) => (b.risk ?? 0) - (a.risk ?? 0)).slice(0, 5);
    expect(parsed.hotspots.map((h) => h.iso)).toEqual(ranked.map((c) => c.iso));
  });

  it('/api/v1/country/:iso: its numbers and categories then', async () => {
    const { body } = await get(`/api/v1/country/ukr?as_of=${between()}`);
    const parsed = asOfCountryResponseSchema.parse(body);
    const history = await store.countryHistory('UKR', { from: null, to: null });
    const then = history.points.find((p) => p.as_of === first().as_of);
    expect(parsed).toMatchObject({ as_of: first().as_of, batch_id: first().id });
    expect(parsed.country.risk).toBe(then?.risk);
    expect(parsed.country.categories).toEqual(then?.categories);
  });

  it('/api/changes: relative to that batch, both batches cited', async () => {
    const { body } = await get(`/api/changes?since=previous&as_of=${second().as_of}`);
    const parsed = changesResponseSchema.parse(body);
    expect(parsed.as_of).toBe(second().as_of);
    const cited = (b: { id: string; as_of: string }) => ({ id: b.id, as_of: b.as_of });
    expect(parsed.to_batch).toEqual(cited(second()));
    expect(parsed.from_batch).toEqual(cited(first()));
    const latest = changesResponseSchema.parse((await get('/api/changes')).body);
    expect(latest.to_batch?.as_of).toBe(batches.at(-1)?.as_of);
  });

  it('the spreadsheet CSV names the batch it was built from by its id, on every row', async () => {
    const newest = batches.at(-1);
    const countries = (await stack.app.inject('/api/countries')).json() as { as_of: string };
    expect(countries.as_of).toBe(newest?.as_of);
    for (const url of ['/api/spreadsheet/countries', '/api/spreadsheet/country/UKR']) {
      const body = (await stack.app.inject(url)).body;
      const rows = parse(body, { bom: true, columns: true }) as Record<string, string>[];
      expect(rows.length, url).toBeGreaterThan(0);
      expect(new Set(rows.map((row) => row['Batch id'])), url).toEqual(new Set([newest?.id]));
    }
  });

  it('the spreadsheets as of a batch are of that batch, from the store, with its time and id', async () => {
    const history = await store.countryHistory('UKR', { from: null, to: null });
    const then = history.points.find((p) => p.as_of === first().as_of);
    for (const url of [
      `/api/spreadsheet/countries?as_of=${between()}`,
      `/api/spreadsheet/countries?tier=${then?.tier ?? ''}&as_of=${between()}`,
      `/api/spreadsheet/country/UKR?as_of=${between()}`,
    ]) {
      const before = stack.demo.requestCount();
      const response = await stack.app.inject(url);
      await stack.bff.upstreamIdle();
      expect(stack.demo.requestCount(), `${url} asked the upstream`).toBe(before);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toMatch(/^text\/csv/);
      // The file name has the batch's time (2026-06-01-…), not the latest's.
      const stamp = first().as_of.slice(0, 10);
      expect(response.headers['content-disposition'], url).toContain(`-${stamp}-`);
      const rows = parse(response.body, { bom: true, columns: true }) as Record<string, string>[];
      expect(rows.length, url).toBeGreaterThan(0);
      expect(new Set(rows.map((row) => row['Batch id'])), url).toEqual(new Set([first().id]));
      const ukr = rows.find((row) => row['ISO code'] === 'UKR');
      expect(Number(ukr?.['Risk (0–100)']), url).toBe(then?.risk);
    }
    const early = await get('/api/spreadsheet/countries?as_of=2020-01-01T00:00:00Z');
    expect(early.status).toBe(400);
    expect(early.body.error).toMatch(/before the first recorded batch/);
  });

  it("the spreadsheet's risk change is ours where both batches are recorded (issue 33)", async () => {
    const column = 'Change in risk score since the previous batch recorded here';
    const provider = "Change in headline score, the provider's own figure (period not stated)";
    const changes = changesResponseSchema.parse((await get('/api/changes?since=previous')).body);
    const ours = new Map(changes.countries.map((c) => [c.iso, c.delta_risk]));
    const latest = (await stack.app.inject('/api/spreadsheet/countries')).body;
    const rows = parse(latest, { bom: true, columns: true }) as Record<string, string>[];
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const expected = ours.get(row['ISO code'] ?? '');
      expect(expected, row['ISO code']).toEqual(expect.any(Number));
      expect(Number(row[column]), row['ISO code']).toBeCloseTo(expected ?? NaN, 6);
      expect(row[provider], row['ISO code']).toMatch(/^-?\d/);
    }
    // The first recorded batch has none before it: no figure of ours, the provider's remains.
    const past = (await stack.app.inject(`/api/spreadsheet/countries?as_of=${between()}`)).body;
    const then = parse(past, { bom: true, columns: true }) as Record<string, string>[];
    expect(then.every((row) => row[column] === '')).toBe(true);
  });

  it('/api/exposure names the batch it was computed from by its time and id', async () => {
    const imported = await stack.app.inject({
      method: 'POST',
      url: '/api/sites/import',
      payload: [{ ref: 'K1', name: 'Kyiv', kind: 'office', lat: 50.45, lng: 30.52, people: 5 }],
    });
    expect(imported.statusCode).toBe(200);
    const then = (await get(`/api/exposure?as_of=${between()}`)).body;
    expect(then).toMatchObject({ as_of: first().as_of, batch_id: first().id });
    const latest = (await get('/api/exposure')).body;
    const newest = batches.at(-1);
    expect(latest).toMatchObject({ as_of: newest?.as_of, batch_id: newest?.id });
  });

  it('refuses a time before the first batch, and a time that is not one, in words', async () => {
    const early = '2020-01-01T00:00:00Z';
    for (const url of [
      `/api/countries?as_of=${early}`,
      `/api/v1/hotspots?as_of=${early}`,
      `/api/v1/country/UKR?as_of=${early}`,
      `/api/changes?as_of=${early}`,
    ]) {
      const { status, body } = await get(url);
      expect(status, url).toBe(400);
      expect(body.error, url).toMatch(/before the first recorded batch/);
    }
    const { status, body } = await get('/api/countries?as_of=yesterday');
    expect(status).toBe(400);
    expect(body.error).toMatch(/as_of must be an ISO 8601 time/);
    const missing = await get(`/api/v1/country/ZZZ?as_of=${first().as_of}`);
    expect(missing.status).toBe(404);
  });
});
