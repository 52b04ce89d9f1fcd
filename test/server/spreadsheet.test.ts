import { parse } from 'csv-parse/sync';
import { displayName } from '../../src/server/services/reference/display-names.js';
import { afterEach, describe, expect, it } from 'vitest';
import { countriesResponseSchema } from '../../src/shared/bff-api.js';
import { TIER_LABELS } from '../../src/shared/tiers.js';
import { get, startTestStack } from '../helpers/bff.js';
import type { TestClock } from '../helpers/clock.js';
import type { Stack } from '../helpers/stack.js';

let stack: (Stack & { clock: TestClock }) | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

const BOM = '\uFEFF';

function rowsOf(body: string): Record<string, string>[] {
  expect(body.startsWith(BOM)).toBe(true);
  return parse(body, { bom: true, columns: true, skip_empty_lines: true }) as Record<
    string,
    string
  >[];
}

async function batch(s: Stack) {
  return countriesResponseSchema.parse((await get(s, '/api/countries')).json());
}

describe('spreadsheet CSV (issue 11, point 6)', () => {
  it('BOM, header first, labels, every country by rank; named after the batch', async () => {
    stack = await startTestStack();
    const { as_of: asOf, countries } = await batch(stack);
    const res = await get(stack, '/api/spreadsheet/countries');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const stamp = new Date(asOf)
      .toISOString()
      .replace(/^(\d{4}-\d\d-\d\d)T(\d\d):(\d\d).*$/, '$1-$2$3');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="global-risk-${stamp}.csv"`,
    );
    // No comment lines: the very first line (after the BOM) is the header.
    const firstLine = res.body.slice(1).split('\r\n')[0];
    expect(firstLine).toMatch(/^Rank,Country,ISO code,Risk/);
    const rows = rowsOf(res.body);
    expect(rows).toHaveLength(countries.length);
    expect(rows[0]!.Rank).toBe('1');
    const risks = rows.map((r) => Number(r['Risk (0–100)']));
    expect(risks).toEqual([...risks].sort((a, b) => b - a));
    // Labels, not codes.
    const labels = new Set(Object.values(TIER_LABELS));
    expect(rows.every((r) => labels.has(r.Tier!))).toBe(true);
    expect(rows.some((r) => /_/.test(r.Profile ?? '') || /_/.test(r['Threat vectors'] ?? ''))).toBe(
      false,
    );
    // Each country by the name the screens use; non-ASCII names survive (UTF-8 with the BOM).
    const byIso = new Map(rows.map((r) => [r['ISO code'], r]));
    for (const c of countries) {
      expect(byIso.get(c.iso.toUpperCase())?.Country).toBe(displayName(c.iso, c.name));
    }
    expect(rows.some((r) => [...(r.Country ?? '')].some((ch) => ch.charCodeAt(0) > 127))).toBe(
      true,
    );
  });

  it("follows the view's tier filter, in the rows and the file name", async () => {
    stack = await startTestStack();
    const { countries } = await batch(stack);
    const res = await get(stack, '/api/spreadsheet/countries?tier=high,crit');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="global-risk-\d{4}-\d\d-\d\d-\d{4}-crit-high\.csv"$/,
    );
    const rows = rowsOf(res.body);
    const expected = countries.filter((c) => c.tier === 'crit' || c.tier === 'high').length;
    expect(rows).toHaveLength(expected);
    expect(new Set(rows.map((r) => r.Tier))).toEqual(new Set(['Critical', 'High']));
    // Ranks stay the ranks of the whole batch.
    const all = rowsOf((await get(stack, '/api/spreadsheet/countries')).body);
    const rankOf = new Map(all.map((r) => [r['ISO code'], r.Rank]));
    for (const r of rows) expect(r.Rank).toBe(rankOf.get(r['ISO code']));
  });

  it('a country file: one row per category, named after the country and the batch', async () => {
    stack = await startTestStack();
    const { countries } = await batch(stack);
    const ukraine = countries.find((c) => c.iso === 'UKR')!;
    const res = await get(stack, '/api/spreadsheet/country/ukr');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="global-risk-UKR-\d{4}-\d\d-\d\d-\d{4}\.csv"$/,
    );
    const rows = rowsOf(res.body);
    expect(rows.length).toBe(Object.keys(ukraine.categories ?? {}).length);
    expect(rows.every((r) => r.Country === ukraine.name && r['ISO code'] === 'UKR')).toBe(true);
    expect(rows.map((r) => r.Category)).toContain('Civil unrest');
  });

  it('bad input is refused in plain words', async () => {
    stack = await startTestStack();
    const cases: [string, number, RegExp][] = [
      ['/api/spreadsheet/countries?tiers=crit', 400, /Unknown query parameter/],
      ['/api/spreadsheet/countries?tier=', 400, /tier/],
      ['/api/spreadsheet/country/12X', 400, /three-letter/],
      ['/api/spreadsheet/country/UKR?x=1', 400, /Unknown query parameter/],
      ['/api/spreadsheet/country/ZZZ', 404, /ZZZ is not in the current data/],
    ];
    for (const [url, status, message] of cases) {
      const res = await get(stack, url);
      expect(res.statusCode, url).toBe(status);
      expect(res.json(), url).toMatchObject({ ok: false, error: expect.stringMatching(message) });
    }
  });
});

describe('spreadsheet cells', () => {
  it('upstream text that would run as a formula is defused', async () => {
    const { countriesCsv } = await import('../../src/server/services/exports/spreadsheet-csv.js');
    const body = countriesCsv(
      '2026-11-22T10:00:00Z',
      [{ iso: 'AAA', name: '=HYPERLINK("http://x","y")', risk: 50, tier: 'mod' }],
      [],
    ).toString('utf8');
    const [row] = rowsOf(body);
    expect(row!.Country).toBe(`'=HYPERLINK("http://x","y")`);
  });

  it('names a country as the screens do: the short common name for a formal one', async () => {
    const { countriesCsv, countryCsv } =
      await import('../../src/server/services/exports/spreadsheet-csv.js');
    const body = countriesCsv(
      '2026-11-22T10:00:00Z',
      [
        { iso: 'COD', name: 'Congo, Democratic Republic of the', risk: 70, tier: 'high' },
        { iso: 'RUS', name: 'Russian Federation', risk: 60, tier: 'high' },
        { iso: 'SDN', name: 'Sudan', risk: 50, tier: 'mod' },
        { iso: 'XKX', name: 'Kosovo, Republic of', risk: 40, tier: 'mod' },
        { iso: 'ZZZ', name: 'Nowhere, Land of', risk: 30, tier: 'low' },
      ],
      [],
    ).toString('utf8');
    expect(rowsOf(body).map((r) => r.Country)).toEqual([
      'DR Congo',
      'Russia',
      'Sudan',
      'Kosovo',
      // A code no list knows keeps the data's name.
      'Nowhere, Land of',
    ]);
    const one = countryCsv('2026-11-22T10:00:00Z', {
      iso: 'SYR',
      name: 'Syrian Arab Republic',
      risk: 70,
      tier: 'high',
    }).toString('utf8');
    expect(rowsOf(one)[0]!.Country).toBe('Syria');
  });
});
