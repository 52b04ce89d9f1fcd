import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { selectAllSites } from '../../src/server/store/sites.js';
import { openTestStore } from '../helpers/history-store.js';
import { startHistoryStack, type HistoryStack } from '../helpers/history-stack.js';
import { proxyUserAccess } from '../helpers/roles-proxy.js';

/*
 * Issue 30, point 6: one formula rule for CSV and JSON imports, POST and PUT (a leading space
 * hides nothing, a minus is a formula unless the whole cell is a number), and an import that
 * names the version it read never overwrites a hand edit made since (said on its row).
 */
const USER_HEADER = 'x-forwarded-user';
const signedIn = { [USER_HEADER]: 'ana' };

let store: HistoryStore;
let stack: HistoryStack;
beforeAll(async () => {
  store = await openTestStore('pglite');
  stack = await startHistoryStack(store, {
    start: Date.UTC(2026, 2, 1, 8, 0, 0),
    config: {
      access: proxyUserAccess,
    },
  });
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await store?.close();
});

const importJson = (payload: unknown) =>
  stack.app.inject({
    method: 'POST',
    url: '/api/sites/import',
    headers: { ...signedIn, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });
const importCsv = (text: string) =>
  stack.app.inject({
    method: 'POST',
    url: '/api/sites/import',
    headers: { ...signedIn, 'content-type': 'text/csv' },
    payload: text,
  });
const warsaw = { ref: 'W-1', name: 'Warsaw office', kind: 'office', lat: 52.23, lng: 21.01 };

/** Names a spreadsheet would run, each with the start the refusal quotes. */
const FORMULAS: Array<[string, string]> = [
  [' =HYPERLINK("http://evil.example")', '=HYPERLINK(\\"http://e'],
  ['\t@SUM(A1)', '@SUM(A1)'],
  ["-2+3+cmd|' /C calc'!A0", "-2+3+cmd|' /C calc'!"],
  [' -2+3+cmd', '-2+3+cmd'],
  ['  +1+1', '+1+1'],
];

describe('one formula rule for every way a site comes in', () => {
  it.each(FORMULAS)(
    'a JSON import refuses the name %j on its row and stores nothing',
    async (name, quoted) => {
      const res = await importJson([{ ...warsaw, ref: 'F-1', name }]);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ created: [], updated: [] });
      expect(res.json().rejected).toEqual([
        {
          row: 1,
          ref: 'F-1',
          reason: `name: "${quoted}" looks like a spreadsheet formula; sites take plain values only`,
        },
      ]);
      expect((await selectAllSites(store.db)).map((s) => s.ref)).not.toContain('F-1');
    },
  );

  it.each(FORMULAS)('a CSV import refuses the name %j in the same words', async (name, quoted) => {
    const cell = `"${name.replace(/"/g, '""')}"`;
    const res = await importCsv(`ref,name,kind,lat,lng\r\nF-2,${cell},office,52.23,21.01\r\n`);
    expect(res.json().rejected).toEqual([
      {
        row: 2,
        ref: 'F-2',
        reason: `name: "${quoted}" looks like a spreadsheet formula; sites take plain values only`,
      },
    ]);
  });

  it('POST and PUT refuse them too, naming the field', async () => {
    for (const [name] of FORMULAS) {
      const post = await stack.app.inject({
        method: 'POST',
        url: '/api/sites',
        headers: signedIn,
        payload: { ...warsaw, ref: 'F-3', name },
      });
      expect(post.statusCode).toBe(400);
      expect(post.json()).toEqual({
        ok: false,
        error: expect.stringMatching(/^name: .* looks like a spreadsheet formula/),
      });
    }
    const made = await stack.app.inject({
      method: 'POST',
      url: '/api/sites',
      headers: signedIn,
      payload: { ...warsaw, ref: 'F-4' },
    });
    expect(made.statusCode).toBe(201);
    const put = await stack.app.inject({
      method: 'PUT',
      url: `/api/sites/${made.json().site.id}`,
      headers: { ...signedIn, 'if-match': made.headers.etag as string },
      payload: { ...warsaw, ref: 'F-4', tags: [' -1+cmd'] },
    });
    expect(put.statusCode).toBe(400);
    expect(put.json().error).toMatch(/^tags: "-1\+cmd" looks like a spreadsheet formula/);
  });

  it('numbers that start with a minus are values, in both formats, and so is a name that is one', async () => {
    const json = await importJson([{ ...warsaw, ref: 'N-1', name: '-12.5', lng: -3.2 }]);
    expect(json.json()).toMatchObject({ rejected: [], created: [{ ref: 'N-1' }] });
    const csv = await importCsv('ref,name,kind,lat,lng\r\nN-2,Lisbon,office,38.72,-9.14\r\n');
    expect(csv.json()).toMatchObject({ rejected: [], created: [{ ref: 'N-2', iso: 'PRT' }] });
  });
});

describe('an import that names the version it read', () => {
  async function siteByRef(ref: string) {
    const list = await stack.app.inject({ url: '/api/sites', headers: signedIn });
    return list.json().sites.find((s: { ref: string }) => s.ref === ref);
  }

  it('replaces a site still at that version, and says so on the row of one edited since', async () => {
    await importJson([
      { ...warsaw, ref: 'V-1', name: 'First' },
      { ...warsaw, ref: 'V-2', name: 'Second' },
    ]);
    const [first, second] = [await siteByRef('V-1'), await siteByRef('V-2')];
    // Someone edits V-2 by hand after the spreadsheet was read.
    const edit = await stack.app.inject({
      method: 'PUT',
      url: `/api/sites/${second.id}`,
      headers: { ...signedIn, 'if-match': `"${second.version}"` },
      payload: { ...warsaw, ref: 'V-2', name: 'Second, edited by hand' },
    });
    expect(edit.statusCode).toBe(200);

    const res = await importJson([
      { ...warsaw, ref: 'V-1', name: 'First, imported', version: first.version },
      { ...warsaw, ref: 'V-2', name: 'Second, imported', version: second.version },
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json().updated).toEqual([expect.objectContaining({ row: 1, ref: 'V-1' })]);
    expect(res.json().rejected).toEqual([
      {
        row: 2,
        ref: 'V-2',
        reason: `site "V-2" was read at version ${second.version} and has been edited since (version ${second.version + 1} now): this row was not stored, so that change is not overwritten; read the site again and import it again`,
      },
    ]);
    expect((await siteByRef('V-1')).name).toBe('First, imported');
    expect((await siteByRef('V-2')).name).toBe('Second, edited by hand');
  });

  it('a CSV version column is checked the same way; a deleted site is not made again', async () => {
    const site = await siteByRef('V-1');
    const removed = await stack.app.inject({
      method: 'DELETE',
      url: `/api/sites/${site.id}`,
      headers: { ...signedIn, 'if-match': `"${site.version}"` },
    });
    expect(removed.statusCode).toBe(200);
    const res = await importCsv(
      `ref,name,kind,lat,lng,version\r\nV-1,Back again,office,52.23,21.01,${site.version}\r\nV-3,New,office,52.23,21.01,\r\n`,
    );
    expect(res.json().created).toEqual([expect.objectContaining({ row: 3, ref: 'V-3' })]);
    expect(res.json().rejected).toEqual([
      {
        row: 2,
        ref: 'V-1',
        reason: expect.stringMatching(
          new RegExp(
            `^site "V-1" was read at version ${site.version} and has been deleted since: this row was not stored`,
          ),
        ),
      },
    ]);
    expect(await siteByRef('V-1')).toBeUndefined();
  });

  it('a version that is not a whole number is refused on its row', async () => {
    const res = await importJson([{ ...warsaw, ref: 'V-4', version: 'latest' }]);
    expect(res.json().rejected).toEqual([
      {
        row: 1,
        ref: 'V-4',
        reason: "version must be a whole number from 1 (the site's version when it was read)",
      },
    ]);
  });
});
