import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import {
  deleteSite,
  insertSite,
  selectAllSites,
  selectSitesRevision,
  updateSite,
  upsertSites,
  type SiteValues,
} from '../../src/server/store/sites.js';
import { SITES_MAX } from '../../src/shared/sites-api.js';
import { longestMessageRun } from '../helpers/loop-turns.js';
import { openAppStore, openTestStore, STORE_BACKENDS } from '../helpers/history-store.js';
import { startHistoryStack, type HistoryStack } from '../helpers/history-stack.js';

/*
 * The sites store on both backends (the upsert by ref, the limit under its lock, the revision),
 * and demo mode's fictional company seeded through the real app on PostgreSQL.
 */
const site = (ref: string, name = ref): SiteValues => ({
  ref,
  name,
  kind: 'office',
  lat: 52.23,
  lng: 21.01,
  iso: 'POL',
  placedBy: 'inside',
  people: 1,
  value: null,
  currency: null,
  tags: [],
  tripFrom: null,
  tripTo: null,
  nearby: [{ iso: 'POL', km: 0 }],
  alertOn: true,
  alertRadiusKm: 100,
  alertMinDelta: 10,
});

describe.each(STORE_BACKENDS)('sites store (%s)', (backend) => {
  let store: HistoryStore;
  beforeAll(async () => {
    store = await openTestStore(backend);
  }, 60_000);
  afterAll(async () => store?.close());

  it('upserts by ref, never doubling a site, and refuses past the limit writing nothing', async () => {
    expect(await upsertSites(store.db, [site('a'), site('b')], 3)).toMatchObject({ total: 2 });
    const revision = await selectSitesRevision(store.db);
    const second = await upsertSites(store.db, [site('a', 'A renamed'), site('c')], 3);
    expect(second).toMatchObject({ total: 3 });
    expect(await selectSitesRevision(store.db)).toBe(revision + 1);
    // One more new site would make four: refused whole, the known ref's change not written either.
    expect(await upsertSites(store.db, [site('b', 'B renamed'), site('d')], 3)).toBeNull();
    const rows = await selectAllSites(store.db);
    expect(rows.map((r) => [r.ref, r.name, r.version])).toEqual([
      ['a', 'A renamed', 2],
      ['b', 'b', 1],
      ['c', 'c', 1],
    ]);
  });

  it('adds one site, refusing a taken ref and a full store without writing', async () => {
    const revision = await selectSitesRevision(store.db);
    const added = await insertSite(store.db, site('e'), 5);
    expect(added).toMatchObject({ ref: 'e', version: 1 });
    expect(await selectSitesRevision(store.db)).toBe(revision + 1);
    expect(await insertSite(store.db, site('a', 'Not A'), 5)).toBe('taken');
    // Four stored (a, b, c, e): a fifth fits a limit of 5, a sixth does not.
    expect(await insertSite(store.db, site('f'), 4)).toBe('full');
    const rows = await selectAllSites(store.db);
    expect(rows.map((r) => [r.ref, r.name])).toEqual([
      ['a', 'A renamed'],
      ['b', 'b'],
      ['c', 'c'],
      ['e', 'e'],
    ]);
    expect(await selectSitesRevision(store.db)).toBe(revision + 1);
  });

  it('writes an import row only if its site is still at the version the import read', async () => {
    // a is at version 2 (renamed above); an edit made after the import read it at 2 moves it on.
    const [a] = (await selectAllSites(store.db)).filter((r) => r.ref === 'a');
    expect(a?.version).toBe(2);
    const edited = await updateSite(store.db, a!.id, 2, { ...site('a', 'Edited by hand') });
    expect(edited?.version).toBe(3);
    const written = await upsertSites(
      store.db,
      [site('a', 'From the import'), site('b', 'B imported'), site('g'), site('e', 'E again')],
      10,
      // What the import read: a at 2 (edited since), b at 1, no g, and no e (made since).
      new Map([
        ['a', 2],
        ['b', 1],
        ['g', null],
        ['e', null],
      ]),
    );
    expect(written?.moved).toEqual(
      new Map([
        ['a', 3],
        ['e', 1],
      ]),
    );
    expect([...(written?.ids.keys() ?? [])].sort()).toEqual(['b', 'g']);
    const rows = await selectAllSites(store.db);
    expect(rows.map((r) => [r.ref, r.name, r.version])).toEqual([
      ['a', 'Edited by hand', 3],
      ['b', 'B imported', 2],
      ['c', 'c', 1],
      ['e', 'e', 1],
      ['g', 'g', 1],
    ]);
  });
});

describe('an import of the most sites on the embedded store', () => {
  let store: HistoryStore;
  beforeAll(async () => {
    store = await openTestStore('pglite');
  }, 60_000);
  afterAll(async () => store?.close());

  // Each ref is read and locked 100 to a statement and written 500 to one; 200 reads in a row
  // held the thread for 150-450 ms of CPU (the import answered with 20,000 created or updated).
  it('gives the event loop a turn between its statements, creating and then replacing', async () => {
    const client = (store.db as unknown as { $client: object }).$client;
    const rows = Array.from({ length: SITES_MAX }, (_, i) => site(`S-${i}`));
    for (const name of ['first', 'renamed']) {
      const expected = new Map(rows.map((row) => [row.ref, name === 'first' ? null : 1]));
      const watch = longestMessageRun(client);
      let longest = Infinity;
      const written = await upsertSites(
        store.db,
        rows.map((row) => ({ ...row, name })),
        SITES_MAX,
        expected,
      ).finally(() => (longest = watch.stop()));
      expect(written).toMatchObject({ total: SITES_MAX, moved: new Map() });
      // 20 seen (the transaction's opening statements); 200 reads in a row are over 800.
      expect(longest).toBeLessThanOrEqual(40);
    }
  }, 60_000);
});

describe('demo sites', () => {
  let store: HistoryStore;
  let stack: HistoryStack;
  beforeAll(async () => {
    store = await openAppStore();
    stack = await startHistoryStack(store, { start: Date.UTC(2026, 2, 1, 8, 0, 0) });
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
    await store?.close();
  });

  it('seeds nothing when the organisation has sites of its own', async () => {
    await upsertSites(store.db, [site('own')], 10);
    expect(await stack.bff.demoSites()).toBe(0);
    expect((await selectAllSites(store.db)).map((r) => r.ref)).toEqual(['own']);
    const [own] = await selectAllSites(store.db);
    expect(await deleteSite(store.db, own!.id, own!.version)).toBe(true);
  });

  it('seeds the fictional company once, every site placed, and /exposure has content', async () => {
    expect(await stack.bff.demoSites()).toBe(40);
    expect(await stack.bff.demoSites()).toBe(0);
    const rows = await selectAllSites(store.db);
    expect(rows).toHaveLength(40);
    expect(rows.filter((r) => r.kind === 'travel')).toHaveLength(4);
    const lublin = rows.find((r) => r.ref === 'NW-LUB');
    expect(lublin?.nearby.find((n) => n.iso === 'UKR')?.km).toBeLessThan(100);
    const exposure = (await stack.app.inject({ url: '/api/exposure' })).json();
    expect(exposure.sites).toBe(40);
    expect(exposure.index.trend.length).toBeGreaterThan(0);
  });
});
