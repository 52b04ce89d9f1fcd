import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsResponseSchema } from '../../src/shared/history-api.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { openAppStore } from '../helpers/history-store.js';
import { startHistoryStack, type HistoryStack } from '../helpers/history-stack.js';

/*
 * Issue 33 point 5: the event search over several countries, a region or a watchlist; an event
 * received for two of them listed once; the results as a spreadsheet; bad input a 400.
 */
let store: HistoryStore;
let stack: HistoryStack;
const START = Date.UTC(2026, 5, 1, 12);
const SHARED_TS = new Date(START - 3_600_000).toISOString();
const SHARED = {
  ts: SHARED_TS,
  headline: '=HYPERLINK("http://evil.example") border clash between Mali and Burkina Faso',
  url: 'https://news.example/mali-burkina-clash',
  source: 'Wire',
  role: 'locus',
  breaking: true,
};

beforeAll(async () => {
  store = await openAppStore(365);
  stack = await startHistoryStack(store, { start: START });
  await stack.nextBatch();
  // The upstream lists an event under each country it names: the archive holds one copy each.
  await store.archiveEvents('MLI', [SHARED], new Date(START));
  await store.archiveEvents('BFA', [{ ...SHARED, role: 'actor' }], new Date(START));
  await store.archiveEvents('NER', [{ ...SHARED, url: undefined }], new Date(START));
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await store?.close();
});

async function events(query: string) {
  const response = await stack.app.inject(`/api/events?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return eventsResponseSchema.parse(response.json()).events;
}

const sharedIn = (list: Awaited<ReturnType<typeof events>>) =>
  list.filter((event) => event.url === SHARED.url || event.headline === SHARED.headline);

describe('/api/events over several countries', () => {
  it('answers iso=A,B,C with events of those countries only, the shared one once', async () => {
    const found = await events('iso=MLI,BFA,NER&limit=100');
    expect(found.length).toBeGreaterThan(1);
    expect(new Set(found.map((e) => e.iso)).size).toBeGreaterThan(0);
    expect(found.every((e) => ['MLI', 'BFA', 'NER'].includes(e.iso))).toBe(true);
    const shared = sharedIn(found);
    expect(shared).toHaveLength(1);
    expect(shared[0]!.countries).toEqual(['MLI', 'BFA', 'NER']);
    expect(shared[0]!.iso).toBe('MLI');
  });

  it('still lists each country its own copy when asked alone', async () => {
    expect(sharedIn(await events('iso=BFA'))).toHaveLength(1);
    expect(sharedIn(await events('iso=BFA'))[0]!.countries).toEqual(['BFA']);
  });

  it('expands a region server-side (Western Africa holds all three)', async () => {
    const found = await events('region=western%20africa&limit=100');
    expect(sharedIn(found)).toHaveLength(1);
    expect(found.every((e) => !['UKR', 'FRA', 'USA'].includes(e.iso))).toBe(true);
  });

  it('expands a watchlist the asker can see into its countries', async () => {
    const created = await stack.app.inject({
      method: 'POST',
      url: '/api/watchlists',
      payload: {
        name: 'Sahel',
        countries: ['MLI', 'NER'],
        rules: [{ kind: 'active_change', min_abs_delta: 1 }],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json() as { watchlist: { id: string } }).watchlist.id;
    const found = await events(`watchlist=${id}&limit=100`);
    expect(found.every((e) => ['MLI', 'NER'].includes(e.iso))).toBe(true);
    expect(sharedIn(found)[0]!.countries).toEqual(['MLI', 'NER']);
  });

  it('exports the search as a spreadsheet: one row per event, formulas neutralised', async () => {
    const response = await stack.app.inject('/api/spreadsheet/events.csv?iso=MLI,BFA');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(
      /attachment; filename="events-.*\.csv"/,
    );
    const rows = parse(response.body, { bom: true, columns: true }) as Record<string, string>[];
    const json = await events('iso=MLI,BFA&limit=100');
    expect(rows.length).toBeGreaterThanOrEqual(json.length);
    const shared = rows.filter((row) => row.Link === SHARED.url);
    expect(shared).toHaveLength(1);
    expect(shared[0]).toMatchObject({
      'Time (UTC)': SHARED_TS.slice(0, 19).replace('T', ' '),
      Headline: `'${SHARED.headline}`,
      Countries: 'Mali; Burkina Faso',
      'ISO codes': 'MLI; BFA',
      Breaking: 'Yes',
    });
    expect(Object.keys(rows[0]!)).toEqual([
      'Time (UTC)',
      'Headline',
      'Countries',
      'ISO codes',
      'Source',
      'Link',
      'Role',
      'Breaking',
      'First recorded (UTC)',
    ]);
  });
});

const BAD: Array<[string, RegExp]> = [
  ['iso=MLI,XXX', /^iso: XXX is not a known country code/],
  ['iso=MLI,12', /^iso must be a three-letter/],
  [
    `iso=${Array.from({ length: 51 }, () => 'MLI').join(',')}`,
    /^iso lists at most 50 country codes/,
  ],
  ['region=Atlantis', /^region must be a UN region or subregion/],
  ['watchlist=abc', /^watchlist must be a watchlist's id/],
  ['watchlist=999999', /^watchlist: there is no watchlist 999999 you can see/],
  ['iso=MLI&region=Africa', /^iso and region: ask for one of iso, region or watchlist/],
];

describe('the event search refuses bad input with a 400 naming the field', () => {
  it.each(BAD)('%s', async (query, message) => {
    for (const path of ['/api/events', '/api/spreadsheet/events.csv']) {
      const response = await stack.app.inject(`${path}?${query}`);
      expect(response.statusCode, path).toBe(400);
      const body = response.json() as { ok: boolean; error: string };
      expect(body.ok).toBe(false);
      expect(body.error).toMatch(message);
    }
  });
});
