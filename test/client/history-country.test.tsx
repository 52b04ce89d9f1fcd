import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { countryBody, statusBody, shellRoutes } from './fixtures/data';
import { countryHistoryBody, countryPoints, coverage, historyRoutes } from './fixtures/history';
import { applyLanguage } from '../../src/client/lib/i18n';
import { LOADED } from './waits';
import { installFakeBff } from './fake-bff';
import { renderApp } from './render-app';
import { catchSavedBlobs } from './saved-files';

function countryBff() {
  return installFakeBff({
    ...shellRoutes(),
    '/api/status': { body: statusBody() },
    '/api/v1/country/UKR': { body: countryBody() },
    ...historyRoutes(),
  });
}

afterEach(() => vi.restoreAllMocks());

// These render the whole app with its lazy chunks (recharts); on two shared cores under a full
// run that has taken over vitest's 5 s default. The time limit is no assertion of speed.
describe('country page: trend', () => {
  it('explains the latest change in words and says where history starts', async () => {
    countryBff();
    renderApp('/country/UKR');
    const panel = await screen.findByRole('region', { name: 'Trend' });
    expect(await within(panel).findByText(/^Active \+15\.7/)).toHaveTextContent(
      'Active +15.7 (tier High → Critical): security +22.1, civil unrest +9.0',
    );
    expect(within(panel).getByText(/History since/)).toHaveTextContent(
      'History since 23 May 2025, 22:00 UTC (20 batches recorded) · Demo history',
    );
  });

  it('a short live history says "since" without demo marking, and one point has no change yet', async () => {
    const bff = countryBff();
    const points = countryPoints(1);
    bff.set('/api/history/country/UKR', {
      body: countryHistoryBody(
        'UKR',
        'Ukraine',
        points,
        coverage({ since: points[0]?.as_of ?? null, batches: 1, demo_seeded: false }),
      ),
    });
    renderApp('/country/UKR');
    const panel = await screen.findByRole('region', { name: 'Trend' });
    expect(await within(panel).findByText(/History since/)).toHaveTextContent(
      'History since 2 Jun 2025, 10:00 UTC (1 batch recorded)',
    );
    expect(within(panel).queryByText('Demo history')).not.toBeInTheDocument();
    expect(panel).toHaveTextContent('only one batch recorded so far');
  });

  it('a country without recorded history says so; the rest of the page stays', async () => {
    const bff = countryBff();
    bff.set('/api/history/country/UKR', {
      status: 404,
      body: { ok: false, error: 'No history for UKR' },
    });
    renderApp('/country/UKR');
    const panel = await screen.findByRole('region', { name: 'Trend' });
    expect(await within(panel).findByText('No history is recorded for UKR.')).toBeInTheDocument();
    expect(screen.getByTestId('country-risk')).toHaveTextContent('86.12');
  });

  it('the table view and the CSV carry the series shown (BOM, header first)', async () => {
    const bff = countryBff();
    // No batch ids recorded: the CSV's id column stays empty.
    bff.set('/api/batches', { body: { ok: true, batches: [], next_before: null } });
    const blobs = catchSavedBlobs();
    const { router } = renderApp('/country/UKR?trend=7d');
    const panel = await screen.findByRole('region', { name: 'Trend' });
    await userEvent.click(await within(panel).findByRole('button', { name: 'Table' }));
    expect(router.state.location.search).toBe('?trend=7d&trend_view=table');
    const rows = within(within(panel).getByRole('table')).getAllByRole('row');
    expect(rows).toHaveLength(1 + 15);
    expect(rows[15]).toHaveTextContent('2 Jun 2025, 10:00 UTC86.1060.0075.70Critical80');

    await userEvent.click(within(panel).getByRole('button', { name: /Download CSV/ }));
    // Made once the batch ids are asked for.
    await vi.waitFor(() => expect(blobs).toHaveLength(1), LOADED);
    const bytes = new Uint8Array(await blobs[0]!.arrayBuffer());
    // UTF-8 byte-order mark first, so spreadsheet programs read the file as UTF-8.
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes).trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'Batch (UTC),Risk,Static,Active,Tier,Confidence,Batch id,Methodology version',
    );
    expect(lines).toHaveLength(1 + 15);
    // A date-time cell and the tier's word, as a spreadsheet should read them (issue 19.15).
    expect(lines[15]).toBe('2025-06-02 10:00:00,86.1,60,75.7,Critical,80,,');
  });

  it('heads the CSV in the page language, the batch id and method columns included', async () => {
    const bff = countryBff();
    bff.set('/api/batches', { body: { ok: true, batches: [], next_before: null } });
    const blobs = catchSavedBlobs();
    try {
      renderApp('/country/UKR?trend=7d&lang=es');
      const panel = await screen.findByRole('region', { name: 'Tendencia' });
      await userEvent.click(await within(panel).findByRole('button', { name: /Descargar CSV/ }));
      await vi.waitFor(() => expect(blobs).toHaveLength(1), LOADED);
      const header = (await blobs[0]!.text()).split('\r\n')[0] ?? '';
      expect(header.split(',').slice(-2)).toEqual(['Id. del lote', 'Versión de la metodología']);
      expect(header).not.toMatch(/Risk|Batch/);
    } finally {
      applyLanguage('en', document.documentElement);
    }
  });
});

describe('country page: category history', () => {
  it('picks a category through the URL and shows its series', async () => {
    countryBff();
    const { router } = renderApp('/country/UKR?cat_view=table');
    const panel = await screen.findByRole('region', { name: 'Category history' });
    const picker = within(panel).getByRole('combobox', { name: 'Category' });
    expect(picker).toHaveValue('security');
    await userEvent.selectOptions(picker, 'civil_unrest');
    expect(router.state.location.search).toBe('?cat_view=table&cat=civil_unrest');
    const rows = within(within(panel).getByRole('table')).getAllByRole('row');
    expect(rows[0]).toHaveTextContent('Civil unrest score');
    expect(rows.at(-1)).toHaveTextContent('50.0021.0029.00');
  });
});

describe('country page: event archive', () => {
  it('pages beyond the latest 20 and searches through the URL', async () => {
    const bff = countryBff();
    const { router } = renderApp('/country/UKR');
    const panel = await screen.findByRole('region', { name: 'Event archive' });
    const list = await within(panel).findByRole('list');
    expect(within(list).getAllByRole('listitem')).toHaveLength(20);
    await userEvent.click(within(panel).getByRole('button', { name: 'Show older events' }));
    expect(await within(panel).findByText('An event from May')).toBeInTheDocument();
    expect(within(panel).getAllByRole('listitem')).toHaveLength(21);
    expect(within(panel).queryByRole('button', { name: 'Show older events' })).toBeNull();
    expect(bff.calls('/api/events').map((u) => u.search)).toEqual([
      '?iso=UKR',
      '?iso=UKR&cursor=page-2',
    ]);

    await userEvent.type(
      within(panel).getByRole('searchbox', { name: 'Headline or source contains' }),
      'drone',
    );
    await userEvent.click(within(panel).getByRole('button', { name: 'Search' }));
    expect(router.state.location.search).toBe('?eq=drone');
    await waitFor(() => expect(within(panel).getAllByRole('listitem')).toHaveLength(1));
    expect(
      within(panel).getByRole('link', { name: /Drone strike on a power plant/ }),
    ).toBeInTheDocument();
    expect(bff.calls('/api/events').at(-1)?.search).toBe('?iso=UKR&q=drone');
  });

  it('a failing archive shows its error and keeps the page', async () => {
    const bff = countryBff();
    bff.set('/api/events', { status: 500, body: { ok: false, error: 'Archive unavailable' } });
    renderApp('/country/UKR');
    const panel = await screen.findByRole('region', { name: 'Event archive' });
    expect(await within(panel).findByRole('alert')).toHaveTextContent(
      'The event archive could not be loaded. Archive unavailable.',
    );
    expect(screen.getByRole('region', { name: 'Trend' })).toBeInTheDocument();
  });
});

describe('country page: compare with', () => {
  it('adds a typed country (name or alias) and opens the compare page', async () => {
    const bff = countryBff();
    // The compare page it opens asks for Myanmar's history: answered, so no request is left.
    bff.set('/api/history/country/MMR', { body: countryHistoryBody('MMR', 'Myanmar') });
    const { router } = renderApp('/country/UKR');
    const field = await screen.findByRole('combobox', { name: 'Compare with…' });
    await userEvent.type(field, 'Atlantis{Enter}');
    expect(await screen.findByText(/No country called “Atlantis”/)).toBeInTheDocument();
    await userEvent.clear(field);
    await userEvent.type(field, 'Burma{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/compare'));
    expect(router.state.location.search).toBe('?iso=UKR,MMR');
    // The compare page shows both countries once their histories are answered.
    expect(await screen.findAllByText(/Myanmar/, {}, LOADED)).not.toHaveLength(0);
    await waitFor(() => expect(bff.calls('/api/history/country/MMR')).toHaveLength(1), LOADED);
  });
});
