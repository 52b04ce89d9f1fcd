import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORY_NAMES } from '../../src/shared/categories.js';
import { exportCountries, exportJsonSchema } from '../../src/shared/schemas/responses.js';
import { DOCUMENTED_HOTSPOT_FIELDS } from '../fixtures/documented-fields.js';
import { T0, startHarness, type Harness } from '../helpers/demo-harness.js';

const EXPECTED_COLUMNS = [
  ...DOCUMENTED_HOTSPOT_FIELDS,
  ...CATEGORY_NAMES.flatMap((name) =>
    ['score', 'static', 'active', 'weight'].map((p) => `${name}_${p}`),
  ),
];

describe('demo upstream: GET /api/v1/export', () => {
  let h: Harness;
  let csv: string;
  let csvResponse: Response;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let json: any;
  let jsonText: string;
  beforeAll(async () => {
    h = await startHarness({ tier: 'Custom' });
    csvResponse = await h.get('/api/v1/export');
    csv = await csvResponse.text();
    const jsonResponse = await h.get('/api/v1/export?format=json');
    jsonText = await jsonResponse.text();
    json = JSON.parse(jsonText);
  });
  afterAll(() => h.close());

  it('sends CSV by default, as an attachment named after the day', () => {
    expect(csvResponse.status).toBe(200);
    expect(csvResponse.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csvResponse.headers.get('content-disposition')).toBe(
      'attachment; filename=ggri-export-2026-01-15.csv',
    );
    expect(csvResponse.headers.get('x-ratelimit-limit')).toBe('1000');
    expect(csvResponse.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    expect(csvResponse.headers.get('cache-control')).toBe('public, max-age=30');
  });

  it('dates the file name by the day of the request, not of the batch', async () => {
    h.clock.now = Date.UTC(2026, 0, 16, 1, 0, 0); // before 03:00: yesterday's 10:00 batch
    const response = await h.get('/api/v1/export?format=json');
    expect(response.headers.get('content-disposition')).toBe(
      'attachment; filename=ggri-export-2026-01-16.json',
    );
    expect((await response.json()).as_of).toBe('2026-01-15T10:00:00.000Z');
    h.clock.now = T0;
  });

  it('starts with the four comment lines, then the header row, CRLF-terminated', () => {
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe(`# generated_at: ${json.as_of}`);
    expect(lines[1]).toBe(`# methodology_version: ${json.methodology_version}`);
    expect(lines[2]).toBe(`# global_ggri: ${json.global.ggri}`);
    const c = json.counts;
    expect(lines[3]).toBe(
      `# counts: countries=${c.countries}; crit=${c.crit}; high=${c.high}; mod=${c.mod}; low=${c.low}`,
    );
    expect(lines[4]).toBe(EXPECTED_COLUMNS.join(','));
    expect(csv.endsWith('\r\n')).toBe(true);
    expect(csv.replaceAll('\r\n', '')).not.toContain('\n');
    expect(c.countries).toBe(json.countries.length);
    expect(c.crit + c.high + c.mod + c.low).toBe(c.countries);
  });

  it('parses back with a real CSV parser into one row per country, equal to the JSON export', () => {
    const rows: Record<string, string>[] = parse(csv, { comment: '#', columns: true });
    expect(rows).toHaveLength(json.countries.length);
    rows.forEach((row, i) => {
      const country = json.countries[i];
      expect(Object.keys(row)).toEqual(EXPECTED_COLUMNS);
      expect(row.iso).toBe(country.iso);
      expect(row.name).toBe(country.name);
      expect(Number(row.lat)).toBe(country.lat);
      expect(Number(row.risk)).toBe(country.risk);
      expect(row.tier).toBe(country.tier);
      expect(Number(row.delta_headline)).toBe(country.delta_headline);
      expect(row.threat_vectors).toBe(country.threat_vectors.join(';'));
      expect(Number(row.source_count)).toBe(country.source_count);
      for (const name of CATEGORY_NAMES) {
        expect(Number(row[`${name}_weight`])).toBe(country.categories[name].weight);
        expect(Number(row[`${name}_score`])).toBe(country.categories[name].score);
      }
    });
  });

  it('quotes names with commas and apostrophes, and they survive the round trip', () => {
    const rows: Record<string, string>[] = parse(csv, { comment: '#', columns: true });
    const names = new Map(rows.map((row) => [row.iso, row.name]));
    expect(names.get('KOR')).toBe('Korea, Republic of');
    expect(names.get('IRN')).toBe('Iran, Islamic Republic of');
    expect(names.get('CIV')).toBe("Côte d'Ivoire");
    expect(names.get('PRK')).toBe("Korea, Democratic People's Republic of");
    expect(csv).toContain('KOR,"Korea, Republic of",');
    // UTF-8 on the wire, not an escaped or mangled form.
    expect(Buffer.from(csv, 'utf8').includes(Buffer.from('Côte', 'utf8'))).toBe(true);
  });

  it('has headlines that need escaping: quotes, ampersands and commas', () => {
    const headlines: string[] = json.countries.flatMap((c: { events: { headline: string }[] }) =>
      c.events.map((event) => event.headline),
    );
    expect(headlines.some((text) => text.includes('"'))).toBe(true);
    expect(headlines.some((text) => text.includes('&'))).toBe(true);
    expect(headlines.some((text) => text.includes(','))).toBe(true);
  });

  it('sends the JSON export pretty-printed, with the whole payload', () => {
    expect(jsonText.startsWith('{\n  "ok": true,')).toBe(true);
    expect(json).toMatchObject({ ok: true, as_of: expect.stringMatching(/\.\d{3}Z$/) });
    expect(json.methodology_version).toEqual(expect.any(String));
    expect(json.global.ggri).toEqual(expect.any(Number));
    expect(exportJsonSchema.safeParse(json).success).toBe(true);
    expect(exportCountries(exportJsonSchema.parse(json))).toHaveLength(json.countries.length);
    for (const country of json.countries) {
      expect(country).toEqual(
        expect.objectContaining({
          iso: expect.any(String),
          lat: expect.any(Number),
          lng: expect.any(Number),
          categories: expect.any(Object),
          events: expect.any(Array),
        }),
      );
    }
    expect(json.feed_history.length).toBeGreaterThanOrEqual(2);
    expect(json.feed_history[0]).toMatchObject({ as_of: json.as_of, ggri: json.global.ggri });
    expect(json.sources.length).toBeGreaterThanOrEqual(15);
    for (const source of json.sources) {
      expect(source).toMatchObject({
        source: expect.stringMatching(/\./),
        source_name: expect.any(String),
        status: expect.stringMatching(/^(ok|degraded)$/),
        items_72h: expect.any(Number),
      });
    }
  });

  it('has a country list as long as the export counts and ranked like the hotspot list', async () => {
    const top = (await h.getJson('/api/v1/hotspots?limit=50')).body.hotspots;
    expect(top.map((row: { iso: string }) => row.iso)).toEqual(
      json.countries.slice(0, 50).map((row: { iso: string }) => row.iso),
    );
  });

  it.each(['xml', 'CSV', '', 'csv&format=json'])('answers 400 for format=%s', async (format) => {
    const { status, headers, body } = await h.getJson(`/api/v1/export?format=${format}`);
    expect(status).toBe(400);
    expect(body).toEqual({ ok: false, error: expect.stringMatching(/format/) });
    expect(headers.get('content-disposition')).toBeNull();
  });
});
