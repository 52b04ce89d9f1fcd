import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  AS_OF,
  countriesBody,
  hotspot,
  statusBody,
  countryBody,
  countryRoutes,
} from './fixtures/data';
import { changesBody, coverage, globalHistoryBody } from './fixtures/history';
import { overviewRoutes } from './fixtures/overview';
import { installFakeBff } from './fake-bff';
import { renderApp } from './render-app';

function overviewBff() {
  return installFakeBff(overviewRoutes());
}

// These render the whole app with its lazy chunks (recharts); on two shared cores under a full
// run that has taken over vitest's 5 s default. The time limit is no assertion of speed.
describe('overview: global index trend', () => {
  it('shows where history starts, that it is demo, the tier counts and the range in the URL', async () => {
    overviewBff();
    const { router } = renderApp('/');
    const panel = await screen.findByRole('region', { name: 'Global index trend' });
    expect(await within(panel).findByText(/History since 3 May 2025, 22:00 UTC/)).toHaveTextContent(
      '(60 batches recorded)',
    );
    expect(within(panel).getByText('Demo history')).toBeInTheDocument();
    const counts = within(panel).getByRole('list', {
      name: 'Countries per tier in the latest batch',
    });
    expect(
      within(counts)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'Critical 3 Critical countries',
      'High 12 High countries',
      'Moderate 40 Moderate countries',
      'Low 120 Low countries',
    ]);

    // 30 days is the default; 7 days of batches 12 h apart is 15 points, shown as table rows.
    await userEvent.click(within(panel).getByRole('button', { name: '7 days' }));
    expect(router.state.location.search).toBe('?trend=7d');
    await userEvent.click(within(panel).getByRole('button', { name: 'Table' }));
    expect(router.state.location.search).toBe('?trend=7d&trend_view=table');
    const table = within(panel).getByRole('table');
    expect(within(table).getAllByRole('row')).toHaveLength(1 + 15);
    expect(within(table).getAllByRole('row')[15]).toHaveTextContent('2 Jun 2025, 10:00 UTC');
    expect(within(table).getAllByRole('row')[15]).toHaveTextContent('51.80');

    await userEvent.click(within(panel).getByRole('button', { name: 'All' }));
    expect(within(panel).getAllByRole('row')).toHaveLength(1 + 60);
  });

  it('says so when nothing is recorded yet, without demo marking', async () => {
    const bff = overviewBff();
    bff.set('/api/history/global', {
      body: globalHistoryBody(
        [],
        coverage({ since: null, latest: null, batches: 0, demo_seeded: false }),
      ),
    });
    renderApp('/');
    const panel = await screen.findByRole('region', { name: 'Global index trend' });
    expect(
      await within(panel).findByText(
        'No history yet: the trend starts with the first recorded batch.',
      ),
    ).toBeInTheDocument();
    expect(within(panel).getByText('No batch recorded yet.')).toBeInTheDocument();
    expect(within(panel).queryByText('Demo history')).not.toBeInTheDocument();
  });

  it('a failing history route fails only its own panel', async () => {
    const bff = overviewBff();
    bff.set('/api/history/global', {
      status: 503,
      body: { ok: false, error: 'The store is not open' },
    });
    renderApp('/');
    const panel = await screen.findByRole('region', { name: 'Global index trend' });
    expect(await within(panel).findByRole('alert')).toHaveTextContent(
      'The trend of the global index could not be loaded. The store is not open.',
    );
    expect(await screen.findByTestId('global-index')).toHaveTextContent('48.37');
    expect(await screen.findByRole('region', { name: 'What changed' })).toBeInTheDocument();
  });
});

describe('overview: What changed', () => {
  it('lists risers, fallers, tier moves, new and gone countries, each a link', async () => {
    overviewBff();
    renderApp('/');
    const panel = await screen.findByRole('region', { name: 'What changed' });
    await within(panel).findByText(/compared with/);
    const list = (title: string) => {
      const heading = within(panel).getByRole('heading', { name: title });
      return heading.parentElement as HTMLElement;
    };
    const risers = within(list('Risk rose most')).getAllByRole('link');
    expect(risers.map((a) => a.textContent)).toEqual(['Ukraine UKR', 'Russia RUS']);
    expect(risers[0]).toHaveAttribute('href', '/country/UKR');
    expect(list('Risk rose most')).toHaveTextContent('+13.20');
    expect(list('Risk rose most')).toHaveTextContent('security +12.0, civil unrest +9.0');
    expect(
      within(list('Risk fell most'))
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(["Côte d'Ivoire CIV", 'Sudan SDN']);
    expect(list('Moved to a higher tier')).toHaveTextContent(/Ukraine UKR High → ?to Critical/);
    expect(list('Moved to a lower tier')).toHaveTextContent(
      /Côte d'Ivoire CIV High → ?to Moderate/,
    );
    expect(within(list('New in the data')).getByRole('link', { name: /^Mali/ })).toHaveAttribute(
      'href',
      '/country/MLI',
    );
    expect(
      within(list('Gone from the data')).getByRole('link', { name: /^Niger/ }),
    ).toBeInTheDocument();
  });

  it('24 hours goes into the URL and the request', async () => {
    const bff = overviewBff();
    const { router } = renderApp('/');
    const panel = await screen.findByRole('region', { name: 'What changed' });
    await within(panel).findByText(/compared with/);
    await userEvent.click(within(panel).getByRole('button', { name: '24 hours' }));
    expect(router.state.location.search).toBe('?changes=24h');
    await waitFor(() =>
      expect(bff.calls('/api/changes').map((u) => u.searchParams.get('since'))).toEqual([
        'previous',
        '24h',
      ]),
    );
  });

  it('follows a new batch on an open page, and again once the store has recorded it', async () => {
    const bff = overviewBff();
    bff.set('/api/status', { body: statusBody({ history: coverage() }) });
    const { queryClient } = renderApp('/');
    const panel = await screen.findByRole('region', { name: 'What changed' });
    await within(panel).findByText(/Batch of 2 Jun 2025, 10:00 UTC compared with/);
    const asked = () => bff.calls('/api/changes').length;
    const before = asked();

    // A new batch is served; the store has not recorded it yet, so the answer is still the old pair.
    const next = '2025-06-02T22:00:00.000Z';
    bff.set('/api/status', { body: statusBody({ as_of: next, history: coverage() }) });
    await act(() => queryClient.refetchQueries({ queryKey: ['status'] }));
    await waitFor(() => expect(asked()).toBe(before + 1));

    // The store records it: its newest batch moves, and What changed is asked again.
    bff.set('/api/changes', {
      body: changesBody({ from_batch: { as_of: AS_OF }, to_batch: { as_of: next } }),
    });
    bff.set('/api/status', {
      body: statusBody({ as_of: next, history: coverage({ latest: next }) }),
    });
    await act(() => queryClient.refetchQueries({ queryKey: ['status'] }));
    expect(
      await within(panel).findByText(
        /Batch of 2 Jun 2025, 22:00 UTC compared with 2 Jun 2025, 10:00 UTC/,
      ),
    ).toBeInTheDocument();
  });

  it('says plainly when there are not two batches to compare', async () => {
    const bff = overviewBff();
    bff.set('/api/changes', {
      body: changesBody({ from_batch: null, countries: [], entered: [], left: [] }),
    });
    renderApp('/?changes=7d');
    const panel = await screen.findByRole('region', { name: 'What changed' });
    expect(
      await within(panel).findByText(
        'Nothing to compare yet: at least two recorded batches are needed 7 days apart.',
      ),
    ).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: '7 days' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  });
});

describe('overview: All countries', () => {
  it('lists every country of the batch, filters by UN region, and selected rows open Compare', async () => {
    const bff = overviewBff();
    bff.set('/api/countries', {
      body: countriesBody({
        countries: [
          ...['UKR', 'SDN', 'RUS', 'MLI', 'NER', 'BFA', 'FRA', 'GBR'].map((iso, i) =>
            hotspot({ iso, name: `Country ${iso}`, risk: 80 - i * 5 }),
          ),
        ],
      }),
    });
    // Pointing at a row fetches its country page ahead.
    for (const iso of ['MLI', 'NER', 'BFA']) {
      bff.set(`/api/v1/country/${iso}`, { body: countryBody({ iso, name: `Country ${iso}` }) });
    }
    const { router } = renderApp('/');
    await userEvent.click(await screen.findByRole('button', { name: 'All countries' }));
    expect(router.state.location.search).toBe('?table=all');
    const table = await screen.findByRole('table');
    expect(within(table).getAllByRole('row')).toHaveLength(1 + 8);

    const region = screen.getByRole('combobox', { name: 'Region' });
    await waitFor(() => expect(region).toBeEnabled());
    await userEvent.selectOptions(region, 'Africa/Western Africa');
    expect(router.state.location.search).toBe('?table=all&region=Africa%2FWestern+Africa');
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getByRole('link').textContent)).toEqual([
      'Country MLI',
      'Country NER',
      'Country BFA',
    ]);

    await userEvent.click(
      screen.getByRole('checkbox', { name: 'Select Country MLI for comparison' }),
    );
    expect(screen.queryByRole('link', { name: /^Compare/ })).not.toBeInTheDocument();
    await userEvent.click(
      screen.getByRole('checkbox', { name: 'Select Country BFA for comparison' }),
    );
    expect(screen.getByRole('link', { name: 'Compare 2' })).toHaveAttribute(
      'href',
      '/compare?iso=MLI,BFA',
    );

    await userEvent.selectOptions(region, 'Europe');
    const european = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(european.map((row) => within(row).getByRole('link').textContent)).toEqual([
      'Country UKR',
      'Country RUS',
      'Country FRA',
      'Country GBR',
    ]);
  });

  it('shows the error of /api/countries in its place', async () => {
    const bff = overviewBff();
    bff.set('/api/countries', { status: 502, body: { ok: false, error: 'Upstream sent junk' } });
    renderApp('/?table=all');
    const panel = await screen.findByRole('region', { name: 'All countries' });
    expect(await within(panel).findByRole('alert')).toHaveTextContent(
      'The list of all countries could not be loaded. Upstream sent junk.',
    );
  });

  it('hotspot rows can be selected for Compare too, and the choice survives switching tables', async () => {
    installFakeBff({
      ...overviewRoutes(),
      // Pointing at a row fetches its country page ahead.
      ...countryRoutes({ UKR: 'Ukraine', SDN: 'Sudan' }),
    });
    renderApp('/');
    await userEvent.click(
      await screen.findByRole('checkbox', { name: 'Select Ukraine for comparison' }),
    );
    expect(screen.getByText('1 selected')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Sudan for comparison' }));
    expect(screen.getByRole('link', { name: 'Compare 2' })).toHaveAttribute(
      'href',
      '/compare?iso=UKR,SDN',
    );
    await userEvent.click(screen.getByRole('button', { name: 'All countries' }));
    expect(
      await screen.findByRole('checkbox', { name: 'Select Sudan for comparison' }),
    ).toBeChecked();
    await userEvent.click(screen.getByRole('button', { name: 'Clear selection' }));
    expect(screen.getByRole('checkbox', { name: 'Select Sudan for comparison' })).not.toBeChecked();
    expect(screen.queryByRole('link', { name: /^Compare \d/ })).not.toBeInTheDocument();
  });
});
