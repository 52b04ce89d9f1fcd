import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { parse } from 'csv-parse/sync';
import { describe, expect, it, vi } from 'vitest';
import { countriesBody, countryBody, hotspotsBody, statusBody, shellRoutes } from './fixtures/data';
import { batchTimes, historyRoutes } from './fixtures/history';
import { COUNTRY_SPREADSHEET_KEYS } from '../../src/shared/country-spreadsheet';
import { COUNTRY_SPREADSHEET_COLUMNS } from '../helpers/spreadsheet-columns';
import { outputsFr } from '../../src/shared/i18n/outputs/fr';
import { applyLanguage } from '../../src/client/lib/i18n';
import { withHistory, storeRoutes } from './fixtures/sites';
import { LOADED } from './waits';
import { installFakeBff, type Route } from './fake-bff';
import { renderApp } from './render-app';

/*
 * Issue 22: every download cites the batch it comes from. The overview's exports while it shows
 * a past batch are of that batch (with its id), and a chart's CSV names each row's batch by its
 * id and the newest batch drawn in its file name.
 */
const TIMES = batchTimes(60);
const PAST = TIMES[40]!;
const ENCODED = encodeURIComponent(PAST);
/** A batch's id in these tests: its position, as 64 hexadecimal digits. */
const idOf = (asOf: string) => (TIMES.indexOf(asOf) + 1).toString(16).padStart(64, 'a');

/** `/api/batches?before=&limit=`: the recorded batches older than `before`, newest first. */
/** The provider changed its method ten batches before the newest (issue 31). */
const methodOf = (asOf: string) =>
  TIMES.indexOf(asOf) >= TIMES.length - 10 ? 'ggri-m 4.0' : 'ggri-m 3.2';

const batchesRoute: Route = (url) => {
  const before = Date.parse(url.searchParams.get('before') ?? '9999-01-01T00:00:00Z');
  const limit = Number(url.searchParams.get('limit') ?? 100);
  const older = [...TIMES].reverse().filter((t) => Date.parse(t) < before);
  const page = older.slice(0, limit);
  return {
    body: {
      ok: true,
      batches: page.map((as_of) => ({
        id: idOf(as_of),
        as_of,
        methodology_version: methodOf(as_of),
      })),
      next_before: older.length > limit ? (page.at(-1) ?? null) : null,
    },
  };
};

/**
 * Lazy chunks (the trend, the CSV code) and the batch ids come first: slow on shared cores. No
 * assertion of speed.
 */
const FILE_MADE = LOADED;

/** The files the page saves: their names and contents. */
function catchDownloads() {
  const files: { name: string; blob: Blob }[] = [];
  const blobs: Blob[] = [];
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    blobs.push(blob as Blob);
    return `blob:${blobs.length - 1}`;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    const blob = blobs[Number(this.href.split(':').at(-1))];
    if (blob) files.push({ name: this.download, blob });
  });
  return files;
}

const records = async (blob: Blob) =>
  parse(await blob.text(), { bom: true, columns: true }) as Record<string, string>[];

/** `2025-06-02 10:00:00` (a spreadsheet's date-time, UTC) → ISO 8601. */
const isoOf = (cell: string) => new Date(`${cell.replace(' ', 'T')}Z`).toISOString();

describe('downloads cite their batch', () => {
  it("the overview's exports of a past batch are of that batch, with its id", async () => {
    const bff = installFakeBff({
      ...shellRoutes(),
      ...storeRoutes(),
      '/api/status': { body: statusBody(withHistory) },
      '/api/countries': { body: countriesBody() },
      [`/api/countries?as_of=${ENCODED}`]: { body: countriesBody({ as_of: PAST }) },
      '/api/v1/hotspots': { body: hotspotsBody() },
      ...historyRoutes(),
      '/api/batches': batchesRoute,
    });
    // The table's rows as ranked in that batch, whatever the query's limit.
    bff.set('/api/v1/hotspots', (url) => ({
      body: url.searchParams.get('as_of') === PAST ? hotspotsBody({ as_of: PAST }) : hotspotsBody(),
    }));
    const files = catchDownloads();
    renderApp(`/?as_of=${ENCODED}`);
    const exports = await screen.findByRole(
      'group',
      { name: 'The recorded batch shown' },
      FILE_MADE,
    );
    // One spreadsheet per view: the table's own, of the rows shown (issue 33, point 2).
    expect(within(exports).queryByRole('link', { name: /Spreadsheet/ })).not.toBeInTheDocument();
    // The upstream's raw files are of the latest batch only: in their place, the batch's content.
    expect(within(exports).queryByRole('link', { name: /^Raw/ })).not.toBeInTheDocument();
    expect(
      (await within(exports).findByRole('link', { name: 'Batch content (JSON)' })).getAttribute(
        'href',
      ),
    ).toBe(`/api/batches/${idOf(PAST)}`);

    const table = await screen.findByRole(
      'group',
      { name: /^Download the \d+ rows shown$/ },
      FILE_MADE,
    );
    await userEvent.click(within(table).getByRole('button', { name: 'JSON' }));
    await vi.waitFor(() => expect(files).toHaveLength(1), FILE_MADE);
    const json = JSON.parse(await files[0]!.blob.text()) as { as_of: string; batch_id: string };
    expect(json).toMatchObject({ as_of: PAST, batch_id: idOf(PAST) });
    await userEvent.click(within(table).getByRole('button', { name: 'Spreadsheet (CSV)' }));
    await vi.waitFor(() => expect(files).toHaveLength(2), FILE_MADE);
    const rows = await records(files[1]!.blob);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row['Batch id']).toBe(idOf(PAST));
      expect(isoOf(row['Data generated (UTC)'] ?? '')).toBe(PAST);
    }
    // The batch's rows were asked with as_of; the latest list once at most, only for where to
    // put the past batch's markers (issue 33, point 3: the store keeps no coordinates).
    const asked = bff.calls('/api/countries').map((u) => u.search);
    expect(asked).toContain(`?as_of=${ENCODED}`);
    expect(asked.filter((search) => search !== `?as_of=${ENCODED}`)).toEqual(
      asked.length > 1 ? [''] : [],
    );
  });

  it('one spreadsheet per view: the rows shown, in the columns of every country spreadsheet', async () => {
    installFakeBff({
      ...shellRoutes(),
      ...storeRoutes(),
      '/api/status': { body: statusBody(withHistory) },
      '/api/countries': { body: countriesBody() },
      '/api/v1/hotspots': { body: hotspotsBody() },
      ...historyRoutes(),
      '/api/batches': batchesRoute,
    });
    const files = catchDownloads();
    renderApp('/?table=all&q=fra');
    const panel = await screen.findByRole('region', { name: 'All countries' }, FILE_MADE);
    await within(panel).findByRole('table', {}, FILE_MADE);
    // Issue 33, point 2: one spreadsheet control in the panel, not a second of every country.
    expect(within(panel).getAllByRole('button', { name: /Spreadsheet/ })).toHaveLength(1);
    expect(within(panel).queryByRole('link', { name: /Spreadsheet/ })).not.toBeInTheDocument();
    await userEvent.click(within(panel).getByRole('button', { name: 'Spreadsheet (CSV)' }));
    await vi.waitFor(() => expect(files).toHaveLength(1), FILE_MADE);
    const text = await files[0]!.blob.text();
    const [header] = parse(text, { bom: true, to: 1 }) as string[][];
    expect(header).toEqual([...COUNTRY_SPREADSHEET_COLUMNS]);
    const rows = await records(files[0]!.blob);
    expect(rows.map((row) => row.Country)).toEqual(['France']);
    expect(rows[0]).toMatchObject({ 'ISO code': 'FRA', Tier: 'Low', Rank: '5' });
  });

  it("a table's spreadsheet has its header in the page's language, the BFF's words (issue 34)", async () => {
    installFakeBff({
      ...shellRoutes(),
      ...storeRoutes(),
      '/api/status': { body: statusBody(withHistory) },
      '/api/countries': { body: countriesBody() },
      '/api/v1/hotspots': { body: hotspotsBody() },
      ...historyRoutes(),
      '/api/batches': batchesRoute,
    });
    const files = catchDownloads();
    try {
      renderApp('/?table=all&q=fra&lang=fr');
      const panel = await screen.findByRole('region', { name: 'Tous les pays' }, FILE_MADE);
      await within(panel).findByRole('table', {}, FILE_MADE);
      await userEvent.click(within(panel).getByRole('button', { name: 'Tableur (CSV)' }));
      await vi.waitFor(() => expect(files).toHaveLength(1), FILE_MADE);
      const [header] = parse(await files[0]!.blob.text(), { bom: true, to: 1 }) as string[][];
      // The words of /api/spreadsheet/countries?lang=fr, column for column.
      expect(header).toEqual(COUNTRY_SPREADSHEET_KEYS.map((key) => outputsFr.sheet[key]));
      expect(header?.slice(0, 3)).toEqual(['Rang', 'Pays', 'Code ISO']);
    } finally {
      applyLanguage('en', document.documentElement);
    }
  });

  it("a chart's CSV names each row's batch by its id, and the newest batch in its name", async () => {
    const bff = installFakeBff({
      ...shellRoutes(),
      ...storeRoutes(),
      '/api/status': { body: statusBody(withHistory) },
      '/api/countries': { body: countriesBody() },
      '/api/v1/hotspots': { body: hotspotsBody() },
      ...historyRoutes(),
      '/api/batches': batchesRoute,
    });
    const files = catchDownloads();
    renderApp('/?trend=all');
    const panel = await screen.findByRole('region', { name: 'Global index trend' }, FILE_MADE);
    await userEvent.click(
      await within(panel).findByRole('button', { name: /Download CSV/ }, FILE_MADE),
    );
    await vi.waitFor(() => expect(files).toHaveLength(1), FILE_MADE);
    expect(files[0]!.name).toBe('global-index-all-2025-06-02-1000.csv');
    const rows = await records(files[0]!.blob);
    expect(rows).toHaveLength(TIMES.length);
    for (const row of rows) {
      const asOf = isoOf(row['Batch (UTC)'] ?? '');
      expect(row['Batch id']).toBe(idOf(asOf));
      expect(row['Methodology version']).toBe(methodOf(asOf));
    }
    expect(new Set(rows.map((row) => row['Methodology version']))).toEqual(
      new Set(['ggri-m 3.2', 'ggri-m 4.0']),
    );
    // Sixty batches: one page of the list.
    expect(bff.calls('/api/batches')).toHaveLength(1);
  });

  it("the country page's spreadsheet as of a past batch is of that batch", async () => {
    installFakeBff({
      ...shellRoutes(),
      ...storeRoutes(),
      '/api/status': { body: statusBody(withHistory) },
      '/api/v1/country/UKR': { body: countryBody() },
      ...historyRoutes(),
      '/api/country/UKR/explain': { status: 404, body: { ok: false, error: 'no move' } },
      '/api/batches': batchesRoute,
    });
    renderApp(`/country/UKR?as_of=${ENCODED}`);
    const link = await screen.findByRole('link', { name: /^Download .+ as CSV$/ }, FILE_MADE);
    expect(link.getAttribute('href')).toBe(`/api/spreadsheet/country/UKR?as_of=${ENCODED}`);
  });
});
