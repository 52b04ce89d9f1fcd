import { gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { selectAllSites } from '../../src/server/store/sites.js';
import { SITES_MAX } from '../../src/shared/sites-api.js';
import { openTestStore } from '../helpers/history-store.js';
import { startHistoryStack, type HistoryStack } from '../helpers/history-stack.js';
import { proxyUserAccess } from '../helpers/roles-proxy.js';

/*
 * The sites API through the real app (buildApp over a real demo upstream, a real PGlite store):
 * CSV and JSON imports (BOM, semicolons, synonyms, bad rows, re-import, dry run), the refusals
 * of bad files, edits with ETag / If-Match, filters, the spreadsheet CSV, access and cross-site.
 */
const start = Date.UTC(2026, 2, 1, 8, 0, 0);
const USER_HEADER = 'x-forwarded-user';
const signedIn = { [USER_HEADER]: 'ana' };

let store: HistoryStore;
let stack: HistoryStack;
beforeAll(async () => {
  store = await openTestStore('pglite');
  stack = await startHistoryStack(store, {
    start,
    config: {
      access: proxyUserAccess,
    },
  });
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await store?.close();
});

function importCsv(text: string | Buffer, query = '', headers: Record<string, string> = {}) {
  return stack.app.inject({
    method: 'POST',
    url: `/api/sites/import${query}`,
    headers: { ...signedIn, 'content-type': 'text/csv', ...headers },
    payload: text,
  });
}

const stored = async () => (await selectAllSites(store.db)).map((s) => s.ref).sort();

const GOOD_CSV =
  '\uFEFFRef,Name,Kind,Latitude,Lon,Country,Headcount,Tags\r\n' +
  'W-1,Warsaw office,office,52.23,21.01,,120,emea|hq\r\n' +
  'L-1,Lublin warehouse,warehouse,51.25,22.57,,35,emea\r\n' +
  'P-1,Paris office,office,48.85,2.35,FR,60,\r\n';

describe('import', () => {
  it('imports a CSV with a BOM and header synonyms, placing each site', async () => {
    const res = await importCsv(GOOD_CSV);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ ok: true, dry_run: false, rows: 3, unchanged: 0, total: 3 });
    expect(body.rejected).toEqual([]);
    expect(body.created).toEqual([
      { row: 2, ref: 'W-1', id: expect.any(Number), iso: 'POL', placed_by: 'inside' },
      { row: 3, ref: 'L-1', id: expect.any(Number), iso: 'POL', placed_by: 'inside' },
      { row: 4, ref: 'P-1', id: expect.any(Number), iso: 'FRA', placed_by: 'given' },
    ]);
    const list = await stack.app.inject({ url: '/api/sites?country=POL', headers: signedIn });
    const lublin = list.json().sites.find((s: { ref: string }) => s.ref === 'L-1');
    expect(lublin).toMatchObject({ people: 35, tags: ['emea'], kind: 'warehouse' });
    expect(lublin.nearby.find((n: { iso: string }) => n.iso === 'UKR').km).toBeLessThan(100);
  });

  it('re-importing the same file changes nothing and duplicates nothing', async () => {
    const before = await selectAllSites(store.db);
    const res = await importCsv(GOOD_CSV);
    expect(res.json()).toMatchObject({ created: [], updated: [], unchanged: 3, total: 3 });
    const after = await selectAllSites(store.db);
    expect(after.map((s) => [s.id, s.version])).toEqual(before.map((s) => [s.id, s.version]));
  });

  it('a semicolon file with decimal commas updates the site with the same ref', async () => {
    const csv = 'REF;NAME;KIND;LAT;LNG;PEOPLE\n' + 'W-1;Warsaw office;office;52,24;21,02;130\n';
    const res = await importCsv(csv);
    const body = res.json();
    expect(body.updated).toEqual([
      { row: 2, ref: 'W-1', id: expect.any(Number), iso: 'POL', placed_by: 'inside' },
    ]);
    const one = await stack.app.inject({
      url: `/api/sites/${body.updated[0].id}`,
      headers: signedIn,
    });
    expect(one.json().site).toMatchObject({ lat: 52.24, lng: 21.02, people: 130, version: 2 });
    expect(await stored()).toEqual(['L-1', 'P-1', 'W-1']);
  });

  it('keeps the good rows of a mixed file and names each bad row and why', async () => {
    const csv =
      'ref,name,kind,lat,lng\n' +
      'M-1,Good one,plant,50.45,30.52\n' +
      'M-2,=HYPERLINK("http://x"),office,50,30\n' +
      'M-3,Bad lat,office,abc,30\n' +
      'M-4,Too far north,office,95,30\n' +
      'M-5,Mid-Atlantic,office,30,-40\n' +
      'M-1,Again,office,50,30\n' +
      'M-6,Odd kind,castle,50,30\n' +
      'M-7,Good two,project,-1.29,36.82\n';
    const res = await importCsv(csv);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.created.map((c: { ref: string }) => c.ref)).toEqual(['M-1', 'M-7']);
    expect(body.rejected).toEqual([
      {
        row: 3,
        ref: 'M-2',
        reason: expect.stringMatching(/^name: .*looks like a spreadsheet formula/),
      },
      { row: 4, ref: 'M-3', reason: expect.stringMatching(/^lat: /) },
      { row: 5, ref: 'M-4', reason: 'lat: lat must be from -90 to 90 degrees' },
      { row: 6, ref: 'M-5', reason: expect.stringMatching(/more than 300 km from any country/) },
      { row: 7, ref: 'M-1', reason: 'ref "M-1" is already on row 2' },
      { row: 8, ref: 'M-6', reason: expect.stringMatching(/^kind: kind must be one of office/) },
    ]);
    expect(await stored()).toEqual(['L-1', 'M-1', 'M-7', 'P-1', 'W-1']);
  });

  it('a dry run answers what would happen and stores nothing', async () => {
    const csv = 'ref,name,kind,lat,lng\nD-1,Dry,office,41.9,12.5\nW-1,Renamed,office,52.24,21.02\n';
    const res = await importCsv(csv, '?dry_run=1');
    expect(res.json()).toMatchObject({
      dry_run: true,
      created: [{ ref: 'D-1', id: null, iso: 'ITA' }],
      updated: [{ ref: 'W-1' }],
      total: 6,
    });
    expect(await stored()).toEqual(['L-1', 'M-1', 'M-7', 'P-1', 'W-1']);
    const w = (await selectAllSites(store.db)).find((s) => s.ref === 'W-1');
    expect(w?.name).toBe('Warsaw office');
  });

  it('a site re-imported at another point, or with its country given, is placed again', async () => {
    const moved = await importCsv('ref,name,kind,lat,lng\nD-2,Moving,office,41.9,12.5\n');
    expect(moved.json().created).toMatchObject([{ iso: 'ITA', placed_by: 'inside' }]);
    const again = await importCsv('ref,name,kind,lat,lng\nD-2,Moving,office,47.5,19.04\n');
    expect(again.json().updated).toMatchObject([{ ref: 'D-2', iso: 'HUN', placed_by: 'inside' }]);
    const given = await importCsv(
      'ref,name,kind,lat,lng,country\nD-2,Moving,office,47.5,19.04,AUT\n',
    );
    expect(given.json().updated).toMatchObject([{ ref: 'D-2', iso: 'AUT', placed_by: 'given' }]);
    const id = given.json().updated[0].id;
    const etag = (await stack.app.inject({ url: `/api/sites/${id}`, headers: signedIn })).headers
      .etag;
    await stack.app.inject({
      method: 'DELETE',
      url: `/api/sites/${id}`,
      headers: { ...signedIn, 'if-match': etag as string },
    });
  });

  it('imports a JSON array, trips with their dates', async () => {
    const res = await stack.app.inject({
      method: 'POST',
      url: '/api/sites/import',
      headers: signedIn,
      payload: [
        {
          ref: 'T-1',
          name: 'Trip to Nairobi',
          kind: 'travel',
          lat: -1.29,
          lng: 36.82,
          from: '2026-03-10',
          to: '2026-03-14',
          people: 2,
        },
        {
          ref: 'T-2',
          name: 'Bad trip',
          kind: 'travel',
          lat: -1.29,
          lng: 36.82,
          from: '2026-03-14',
          to: '2026-03-10',
        },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      created: [{ row: 1, ref: 'T-1', iso: 'KEN' }],
      rejected: [{ row: 2, ref: 'T-2', reason: 'from must not be after to' }],
    });
  });
});

describe('bad files are refused whole, in words, and nothing stored changes', () => {
  it('a file that is not UTF-8', async () => {
    const latin1 = Buffer.from('ref,name,kind,lat,lng\nX-1,Kraków,office,50.06,19.94\n', 'latin1');
    const res = await importCsv(latin1);
    expect(res.statusCode).toBe(415);
    expect(res.json().error).toMatch(/not UTF-8 text/);
    const declared = await importCsv('ref,name,kind,lat,lng\n', '', {
      'content-type': 'text/csv; charset=windows-1252',
    });
    expect(declared.statusCode).toBe(415);
    expect(declared.json().error).toMatch(/must be UTF-8/);
  });

  it('a file of more rows than there may be sites (CSV and JSON)', async () => {
    const rows = Array.from({ length: SITES_MAX + 1 }, (_, i) => `R-${i},R,office,50,30`);
    const csv = await importCsv(`ref,name,kind,lat,lng\n${rows.join('\n')}\n`);
    expect(csv.statusCode).toBe(413);
    expect(csv.json()).toEqual({
      ok: false,
      error: `The file has more than ${SITES_MAX} rows; an import takes at most ${SITES_MAX} (the most sites there may be): split it`,
    });
    const json = await stack.app.inject({
      method: 'POST',
      url: '/api/sites/import',
      headers: signedIn,
      payload: Array.from({ length: SITES_MAX + 1 }, (_, i) => ({ ref: `R-${i}` })),
    });
    expect(json.statusCode).toBe(413);
    expect(await stored()).not.toContain('R-0');
  });

  it('a 50 MB body', async () => {
    const row = 'B-0,Big,office,50,30\n';
    const big = Buffer.from(
      'ref,name,kind,lat,lng\n' + row.repeat((50 * 1024 * 1024) / row.length),
    );
    const res = await importCsv(big);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      ok: false,
      error: expect.stringMatching(/larger than 10 MB, the most one import takes/),
    });
    expect(await stored()).not.toContain('B-0');
  });

  it('a header without the needed columns', async () => {
    const res = await importCsv('name,lat\nA,1\n');
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/^The header row lacks ref, kind, lng/);
  });
});

describe('one site: ETag, If-Match, validation', () => {
  const idOf = async (ref: string) =>
    (await selectAllSites(store.db)).find((s) => s.ref === ref)!.id;
  const body = {
    ref: 'P-1',
    name: 'Paris office',
    kind: 'office',
    lat: 48.85,
    lng: 2.35,
    people: 70,
  };

  it('PUT needs If-Match, refuses a stale one, and answers with the new ETag', async () => {
    const id = await idOf('P-1');
    const got = await stack.app.inject({ url: `/api/sites/${id}`, headers: signedIn });
    const etag = got.headers.etag as string;
    const url = `/api/sites/${id}`;
    const missing = await stack.app.inject({
      method: 'PUT',
      url,
      headers: signedIn,
      payload: body,
    });
    expect(missing.statusCode).toBe(428);
    const put = await stack.app.inject({
      method: 'PUT',
      url,
      headers: { ...signedIn, 'if-match': etag },
      payload: body,
    });
    expect(put.statusCode).toBe(200);
    expect(put.json().site).toMatchObject({ people: 70, iso: 'FRA', placed_by: 'inside' });
    expect(put.headers.etag).not.toBe(etag);
    const stale = await stack.app.inject({
      method: 'PUT',
      url,
      headers: { ...signedIn, 'if-match': etag },
      payload: body,
    });
    expect(stale.statusCode).toBe(412);
  });

  it('PUT refuses NaN-like and out-of-range coordinates and a ref another site has', async () => {
    const id = await idOf('P-1');
    const url = `/api/sites/${id}`;
    const etag = (await stack.app.inject({ url, headers: signedIn })).headers.etag as string;
    const put = (payload: object) =>
      stack.app.inject({ method: 'PUT', url, headers: { ...signedIn, 'if-match': etag }, payload });
    expect((await put({ ...body, lat: 'NaN' })).json().error).toMatch(/^lat: /);
    expect((await put({ ...body, lng: 181 })).json().error).toBe(
      'lng: lng must be from -180 to 180 degrees',
    );
    const taken = await put({ ...body, ref: 'W-1' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toMatch(/already has this ref/);
    // Plain values only, as an import and POST take them: a formula in a text or a tag is
    // refused, and the site keeps what it had.
    const formula = await put({ ...body, name: '=HYPERLINK("http://x")' });
    expect(formula.statusCode).toBe(400);
    expect(formula.json().error).toMatch(/^name: .* looks like a spreadsheet formula/);
    const tag = await put({ ...body, tags: ['emea', '@SUM(A1)'] });
    expect(tag.statusCode).toBe(400);
    expect(tag.json().error).toMatch(/^tags: .* looks like a spreadsheet formula/);
    expect((await stack.app.inject({ url, headers: signedIn })).headers.etag).toBe(etag);
  });

  it('DELETE needs the current ETag', async () => {
    const id = await idOf('M-7');
    const url = `/api/sites/${id}`;
    const stale = await stack.app.inject({
      method: 'DELETE',
      url,
      headers: { ...signedIn, 'if-match': '"99"' },
    });
    expect(stale.statusCode).toBe(412);
    const etag = (await stack.app.inject({ url, headers: signedIn })).headers.etag as string;
    const del = await stack.app.inject({
      method: 'DELETE',
      url,
      headers: { ...signedIn, 'if-match': etag },
    });
    expect(del.json()).toEqual({ ok: true });
    expect((await stack.app.inject({ url, headers: signedIn })).statusCode).toBe(404);
  });
});

describe('lists, filters and the spreadsheet', () => {
  it('filters by country, kind, tag and tier (the country tier of the newest batch)', async () => {
    const refs = async (query: string) => {
      const res = await stack.app.inject({ url: `/api/sites?${query}`, headers: signedIn });
      expect(res.statusCode).toBe(200);
      return res
        .json()
        .sites.map((s: { ref: string }) => s.ref)
        .sort();
    };
    expect(await refs('country=pol')).toEqual(['L-1', 'W-1']);
    expect(await refs('kind=office,travel')).toEqual(['P-1', 'T-1', 'W-1']);
    // W-1 lost its tags when the semicolon file (no tags column) replaced it.
    expect(await refs('tag=emea')).toEqual(['L-1']);
    const all = (await stack.app.inject({ url: '/api/sites', headers: signedIn })).json().sites;
    const tier = all[0].country.tier as string;
    const sameTier = all.filter((s: { country: { tier: string } }) => s.country.tier === tier);
    expect(await refs(`tier=${tier}`)).toEqual(sameTier.map((s: { ref: string }) => s.ref).sort());
    const bad = await stack.app.inject({ url: '/api/sites?kind=castle', headers: signedIn });
    expect(bad.statusCode).toBe(400);
  });

  it("the CSV has the sites with their country's numbers, formula cells escaped", async () => {
    // Every way in refuses a formula (import, POST, PUT); one stored before that rule, or
    // written by hand, still leaves the CSV as text.
    const id = (await selectAllSites(store.db)).find((s) => s.ref === 'L-1')!.id;
    await store.db.execute(sql`update sites set name = '=cmd|calc', people = 35 where id = ${id}`);
    await store.db.execute(sql`update sites_revision set revision = revision + 1`);
    const res = await stack.app.inject({ url: '/api/spreadsheet/sites.csv', headers: signedIn });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.body.startsWith('\uFEFFRef,Name,Kind,')).toBe(true);
    const line = res.body.split('\r\n').find((l) => l.startsWith('L-1,'))!;
    expect(line).toMatch(
      /^L-1,'=cmd\|calc,Warehouse,51\.25,22\.57,Poland,POL,Inside the country,35,/,
    );
    // The numbers cite their batch (issue 22): its time, then its id in the chain (newest first).
    const batches = await stack.app.inject({ url: '/api/batches', headers: signedIn });
    const newest = (batches.json() as { batches: { id: string }[] }).batches[0];
    expect(newest?.id).toMatch(/^[0-9a-f]{16,}$/);
    expect(res.body.split('\r\n')[0]!.endsWith(',Data generated (UTC),Batch id')).toBe(true);
    expect(line.endsWith(`,${newest!.id}`)).toBe(true);
    expect(line).toMatch(/,\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,[0-9a-f]+$/);
  });
});

describe('POST /api/sites: one new site', () => {
  const post = (payload: unknown, headers: Record<string, string> = {}) =>
    stack.app.inject({
      method: 'POST',
      url: '/api/sites',
      headers: { ...signedIn, ...headers },
      payload: payload as object,
    });
  const kyiv = { ref: 'N-1', name: 'Kyiv office', kind: 'office', lat: 50.45, lng: 30.52 };

  it('answers 201 with the placed site and its ETag, which a PUT then takes', async () => {
    const res = await post({
      ...kyiv,
      people: 12,
      alert: { on: false, radius_km: 50, min_delta: 5 },
    });
    expect(res.statusCode).toBe(201);
    const site = res.json().site;
    expect(site).toMatchObject({
      ref: 'N-1',
      iso: 'UKR',
      placed_by: 'inside',
      people: 12,
      version: 1,
      alert: { on: false, radius_km: 50, min_delta: 5 },
    });
    expect(site.nearby[0]).toEqual({ iso: 'UKR', km: 0 });
    expect(res.headers.etag).toBe('"1"');
    expect(res.headers['cache-control']).toBe('no-store');
    const put = await stack.app.inject({
      method: 'PUT',
      url: `/api/sites/${site.id}`,
      headers: { ...signedIn, 'if-match': res.headers.etag as string },
      payload: { ...kyiv, people: 13 },
    });
    expect(put.statusCode).toBe(200);
  });

  it('a ref another site has is a 409 and that site is left as it was', async () => {
    const before = (await selectAllSites(store.db)).find((s) => s.ref === 'W-1')!;
    const res = await post({ ...kyiv, ref: 'W-1', name: 'Not Warsaw' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ ok: false, error: 'ref: another site already has this ref' });
    const after = (await selectAllSites(store.db)).find((s) => s.ref === 'W-1')!;
    expect([after.name, after.version]).toEqual([before.name, before.version]);
  });

  it('refuses what an import row refuses, in the same words, storing nothing', async () => {
    const cases: Array<[unknown, RegExp | string]> = [
      [[kyiv], 'The body must be a JSON object with ref, name, kind, lat and lng'],
      [{ ...kyiv, ref: 'N-2', lat: 95 }, 'lat: lat must be from -90 to 90 degrees'],
      [{ ...kyiv, ref: 'N-3', lat: 30, lng: -40 }, /more than 300 km from any country/],
      [{ ...kyiv, ref: 'N-4', name: '=HYPERLINK("x")' }, /^name: .*spreadsheet formula/],
      [{ ...kyiv, ref: 'N-5', iso: 'XYZ' }, 'iso: XYZ is not an ISO 3166-1 alpha-3 country code'],
    ];
    for (const [payload, error] of cases) {
      const res = await post(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error).toEqual(
        typeof error === 'string' ? error : expect.stringMatching(error),
      );
    }
    expect(await stored()).not.toEqual(expect.arrayContaining(['N-2']));
    expect((await stored()).filter((ref) => /^N-[2-5]$/.test(ref))).toEqual([]);
  });

  it('a site sent from another site, or by nobody signed in, is refused and not stored', async () => {
    expect(
      (await post({ ...kyiv, ref: 'N-6' }, { 'sec-fetch-site': 'cross-site' })).statusCode,
    ).toBe(403);
    const anonymous = await stack.app.inject({
      method: 'POST',
      url: '/api/sites',
      payload: { ...kyiv, ref: 'N-7' },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(await stored()).not.toEqual(expect.arrayContaining([expect.stringMatching(/^N-[67]$/)]));
  });
});

describe("GET /api/sites/points: the map's copy of every site", () => {
  it('has every site as columns, as /api/sites has them, in id order', async () => {
    const res = await stack.app.inject({ url: '/api/sites/points', headers: signedIn });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const points = res.json();
    const list = (
      await stack.app.inject({ url: '/api/sites?limit=2000', headers: signedIn })
    ).json();
    type Listed = {
      id: number;
      lat: number;
      lng: number;
      kind: string;
      name: string;
      iso: string;
      people: number | null;
      country: { tier: string | null } | null;
    };
    const sites = list.sites as Listed[];
    expect(sites.length).toBeGreaterThan(3);
    expect(points).toEqual({
      ok: true,
      as_of: list.as_of,
      total: sites.length,
      id: sites.map((s) => s.id),
      lat: sites.map((s) => s.lat),
      lng: sites.map((s) => s.lng),
      kind: sites.map((s) => s.kind),
      tier: sites.map((s) => s.country?.tier ?? null),
      name: sites.map((s) => s.name),
      iso: sites.map((s) => s.iso),
      people: sites.map((s) => s.people ?? 0),
    });
    expect(points.tier.some((tier: string | null) => tier !== null)).toBe(true);
  });

  it('answers 304 to its ETag until a site changes, then the new points', async () => {
    const first = await stack.app.inject({ url: '/api/sites/points', headers: signedIn });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"/);
    const again = await stack.app.inject({
      url: '/api/sites/points',
      headers: { ...signedIn, 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const id = first.json().id[0] as number;
    const one = await stack.app.inject({ url: `/api/sites/${id}`, headers: signedIn });
    const site = one.json().site;
    const renamed = await stack.app.inject({
      method: 'PUT',
      url: `/api/sites/${id}`,
      headers: { ...signedIn, 'if-match': one.headers.etag as string },
      payload: {
        ref: site.ref,
        name: 'Renamed for the map',
        kind: site.kind,
        lat: site.lat,
        lng: site.lng,
      },
    });
    expect(renamed.statusCode).toBe(200);
    const after = await stack.app.inject({
      url: '/api/sites/points',
      headers: { ...signedIn, 'if-none-match': etag },
    });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
    expect(after.json().name[0]).toBe('Renamed for the map');
  });

  it('is compressed for a browser that takes gzip, with its own ETag', async () => {
    // Enough sites for a body worth compressing (1 KB and more).
    const rows = Array.from({ length: 20 }, (_, i) => `G-${i},Gdansk ${i},office,54.35,18.6${i}`);
    expect((await importCsv(`ref,name,kind,lat,lng\n${rows.join('\n')}\n`)).statusCode).toBe(200);
    const plain = await stack.app.inject({ url: '/api/sites/points', headers: signedIn });
    const res = await stack.app.inject({
      url: '/api/sites/points',
      headers: { ...signedIn, 'accept-encoding': 'gzip' },
    });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.etag).not.toBe(plain.headers.etag);
    expect(JSON.parse(gunzipSync(res.rawPayload).toString())).toEqual(plain.json());
  });

  it('nobody signed in gets a 401 and no point', async () => {
    const res = await stack.app.inject({ url: '/api/sites/points' });
    expect(res.statusCode).toBe(401);
    expect(res.body).not.toContain('Warsaw');
  });
});

describe('access and cross-site protection', () => {
  it('nobody signed in gets a 401, for reads and imports alike', async () => {
    expect((await stack.app.inject({ url: '/api/sites' })).statusCode).toBe(401);
    expect((await stack.app.inject({ url: '/api/exposure' })).statusCode).toBe(401);
    const res = await stack.app.inject({
      method: 'POST',
      url: '/api/sites/import',
      headers: { 'content-type': 'text/csv' },
      payload: 'ref,name,kind,lat,lng\nZ-1,Z,office,50,30\n',
    });
    expect(res.statusCode).toBe(401);
    expect(await stored()).not.toContain('Z-1');
  });

  it('an import a browser sends from another site is refused and stores nothing', async () => {
    const res = await importCsv('ref,name,kind,lat,lng\nZ-2,Z,office,50,30\n', '', {
      'sec-fetch-site': 'cross-site',
    });
    expect(res.statusCode).toBe(403);
    expect(await stored()).not.toContain('Z-2');
  });
});

describe('the site rule on every site', () => {
  it('imports alert_on, alert_radius_km and alert_min_delta; left out, the default rule', async () => {
    const res = await importCsv(
      'ref,name,kind,lat,lng,alert_on,alert_radius_km,alert_min_delta\r\n' +
        'R-1,Rule off,office,52.23,21.01,no,,\r\n' +
        'R-2,Wide,office,52.23,21.01,,250,5\r\n' +
        'R-3,Default,office,52.23,21.01,,,\r\n' +
        'R-4,Bad switch,office,52.23,21.01,maybe,,\r\n' +
        'R-5,Too far,office,52.23,21.01,yes,301,\r\n' +
        'R-6,Too small,office,52.23,21.01,,,0.5\r\n',
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().rejected).toEqual([
      { row: 5, ref: 'R-4', reason: 'alert.on must be true or false' },
      { row: 6, ref: 'R-5', reason: 'alert.radius_km must be at most 300' },
      { row: 7, ref: 'R-6', reason: 'alert.min_delta must be from 1 to 100' },
    ]);
    const list = await stack.app.inject({ url: '/api/sites?limit=2000', headers: signedIn });
    const rule = (ref: string) =>
      list.json().sites.find((s: { ref: string }) => s.ref === ref).alert;
    expect(rule('R-1')).toEqual({ on: false, radius_km: 100, min_delta: 10 });
    expect(rule('R-2')).toEqual({ on: true, radius_km: 250, min_delta: 5 });
    expect(rule('R-3')).toEqual({ on: true, radius_km: 100, min_delta: 10 });
    // Every site answer carries it.
    expect(list.json().sites.every((s: { alert?: unknown }) => s.alert !== undefined)).toBe(true);
  });

  it('PUT sets the rule (and a PUT without it restores the default); a change is no "unchanged"', async () => {
    const list = await stack.app.inject({ url: '/api/sites?limit=2000', headers: signedIn });
    const id = list.json().sites.find((s: { ref: string }) => s.ref === 'R-3').id;
    const one = await stack.app.inject({ url: `/api/sites/${id}`, headers: signedIn });
    const body = { ref: 'R-3', name: 'Default', kind: 'office', lat: 52.23, lng: 21.01 };
    const put = await stack.app.inject({
      method: 'PUT',
      url: `/api/sites/${id}`,
      headers: { ...signedIn, 'if-match': one.headers.etag as string },
      payload: { ...body, alert: { on: true, radius_km: 0, min_delta: 25 } },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json().site.alert).toEqual({ on: true, radius_km: 0, min_delta: 25 });
    // Re-importing the row without the columns puts the default back: it is an update.
    const again = await importCsv('ref,name,kind,lat,lng\r\nR-3,Default,office,52.23,21.01\r\n');
    expect(again.json()).toMatchObject({ unchanged: 0, updated: [{ ref: 'R-3' }] });
  });
});

describe('GET /api/sites in pages', () => {
  it('pages by cursor with the totals; every site once, in id order', async () => {
    const all = (
      await stack.app.inject({ url: '/api/sites?limit=2000', headers: signedIn })
    ).json();
    expect(all.next_cursor).toBeNull();
    const ids: number[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 100; page++) {
      const url: string = `/api/sites?limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const res = (await stack.app.inject({ url, headers: signedIn })).json();
      expect(res).toMatchObject({ total: all.total, matched: all.total });
      expect(res.sites.length).toBeLessThanOrEqual(2);
      ids.push(...res.sites.map((s: { id: number }) => s.id));
      cursor = res.next_cursor;
      if (cursor === null) break;
    }
    expect(ids).toEqual(all.sites.map((s: { id: number }) => s.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids.length).toBe(all.total);
  });

  it('500 a page when left out; filters count in matched', async () => {
    const res = (
      await stack.app.inject({ url: '/api/sites?country=FRA', headers: signedIn })
    ).json();
    expect(res.matched).toBe(res.sites.length);
    expect(res.matched).toBeLessThan(res.total);
  });

  it('a limit or cursor that is not one is a 400 in words', async () => {
    for (const [query, words] of [
      ['limit=0', /^limit must be a whole number from 1 to 2000/],
      ['limit=2001', /^limit must be a whole number from 1 to 2000/],
      ['limit=abc', /^limit must be a whole number from 1 to 2000/],
      ['cursor=-1', /^cursor must be the next_cursor of the page before/],
      ['cursor=1.5', /^cursor must be the next_cursor of the page before/],
    ] as const) {
      const res = await stack.app.inject({ url: `/api/sites?${query}`, headers: signedIn });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ ok: false, error: expect.stringMatching(words) });
    }
  });
});
