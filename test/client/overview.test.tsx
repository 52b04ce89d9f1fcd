import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  countriesBody,
  countryBody,
  hotspot,
  hotspotsBody,
  HOTSPOTS,
  statusBody,
  shellRoutes,
} from './fixtures/data';
import { countryHistoryRoutes, historyRoutes } from './fixtures/history';
import { installFakeBff } from './fake-bff';
import { renderApp } from './render-app';

function standardBff() {
  return installFakeBff({
    ...shellRoutes(),
    '/api/status': { body: statusBody() },
    // The overview's trend and "What changed" panels; a country link opens Sudan's page.
    ...historyRoutes(),
    ...countryHistoryRoutes({ SDN: 'Sudan' }),
    '/api/countries': { body: countriesBody() },
    '/api/v1/hotspots': (url) => {
      const tiers = url.searchParams.get('tier')?.split(',') ?? null;
      const rows = tiers ? HOTSPOTS.filter((h) => tiers.includes(h.tier ?? '')) : HOTSPOTS;
      return { body: hotspotsBody({ hotspots: rows }) };
    },
  });
}

describe('overview: global header', () => {
  it('shows the global index, its tier, the change in words and the quota', async () => {
    standardBff();
    renderApp('/');
    const header = await screen.findByRole('region', { name: 'Global risk index' });
    expect(within(header).getByTestId('global-index')).toHaveTextContent('48.37');
    expect(within(header).getByText('Moderate')).toBeInTheDocument();
    expect(within(header).getByText(/Up 1\.20 vs yesterday/)).toBeInTheDocument();
    expect(within(header).getByText('412')).toBeInTheDocument();
    expect(within(header).getByText('ggri-m 3.2')).toBeInTheDocument();
    // The quota is an operational detail: in the footer's status line, not the summary.
    expect(within(header).queryByText(/left this hour/)).not.toBeInTheDocument();
    expect(await screen.findByText(/API quota: 38 of 50 left this hour/)).toBeInTheDocument();
    expect(screen.getAllByText('Demo data').length).toBeGreaterThan(0);
  });

  it('reads "n/a" when the upstream sends neither ggri nor index, and falls back to index', async () => {
    const bff = standardBff();
    bff.set('/api/countries', {
      body: countriesBody({ global: { tier: 'mod', delta_vs_yesterday: -0.5 } }),
    });
    const first = renderApp('/');
    const header = await screen.findByRole('region', { name: 'Global risk index' });
    expect(within(header).getByTestId('global-index')).toHaveTextContent('n/a');
    expect(within(header).getByText(/Down 0\.50 vs yesterday/)).toBeInTheDocument();
    first.unmount();

    bff.set('/api/countries', {
      body: countriesBody({ global: { index: 51.5, delta_vs_yesterday: 0.001 } }),
    });
    renderApp('/');
    const again = await screen.findByRole('region', { name: 'Global risk index' });
    expect(within(again).getByTestId('global-index')).toHaveTextContent('51.50');
    expect(within(again).getByText(/Unchanged vs yesterday/)).toBeInTheDocument();
  });
  it("reads the country list whatever a row's categories hold (no view takes them from it), but not a row without a code", async () => {
    const bff = standardBff();
    // The hotspot list's own summary differs, to tell which answer the header shows.
    bff.set('/api/v1/hotspots', {
      body: hotspotsBody({ global: { ggri: 10, tier: 'low', delta_vs_yesterday: 0 } }),
    });
    const list = countriesBody();
    const withCategories = (categories: unknown) => ({
      ...list,
      countries: list.countries.map((row, i) => (i === 0 ? { ...row, categories } : row)),
    });
    bff.set('/api/countries', { body: withCategories({ security: 'high', economy: [1, 2] }) });
    const first = renderApp('/');
    const header = await screen.findByRole('region', { name: 'Global risk index' });
    expect(within(header).getByTestId('global-index')).toHaveTextContent('48.37');
    first.unmount();

    const { iso: _dropped, ...noCode } = list.countries[0]!;
    bff.set('/api/countries', {
      body: { ...list, countries: [noCode, ...list.countries.slice(1)] },
    });
    renderApp('/');
    const again = await screen.findByRole('region', { name: 'Global risk index' });
    expect(within(again).getByTestId('global-index')).toHaveTextContent('10.00');
  });

  it('still shows the index from the hotspot list when /api/countries fails', async () => {
    const bff = standardBff();
    bff.set('/api/countries', { status: 502, body: { ok: false, error: 'Upstream sent junk' } });
    renderApp('/');
    const header = await screen.findByRole('region', { name: 'Global risk index' });
    expect(within(header).getByTestId('global-index')).toHaveTextContent('48.37');
  });
});

describe('overview: hotspot table', () => {
  it('lists hotspots in upstream order with 2-decimal risk and humanised labels', async () => {
    standardBff();
    renderApp('/');
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getByRole('link').textContent)).toEqual([
      'Ukraine',
      'Sudan',
      'Russia',
      "Côte d'Ivoire",
    ]);
    expect(within(rows[0]!).getByText('86.12')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('Armed conflict')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('Interstate war, Drone strikes')).toBeInTheDocument();
  });

  it('a tier filter goes into the URL and the request, and the table follows', async () => {
    const bff = standardBff();
    const { router } = renderApp('/');
    const user = userEvent.setup();
    await screen.findByRole('table');
    const tierGroup = screen.getByRole('group', { name: 'Tier' });
    await user.click(within(tierGroup).getByRole('checkbox', { name: 'High' }));
    await user.click(within(tierGroup).getByRole('checkbox', { name: 'Critical' }));

    await waitFor(() => expect(router.state.location.search).toBe('?tier=crit%2Chigh'));
    await waitFor(() => {
      const names = within(screen.getByRole('table'))
        .getAllByRole('link')
        .map((link) => link.textContent);
      expect(names).toEqual(['Ukraine', 'Sudan', 'Russia']);
    });
    const last = bff.calls('/api/v1/hotspots').at(-1)!;
    expect(last.searchParams.get('tier')).toBe('crit,high');
    expect(last.searchParams.get('limit')).toBe('20');
  });

  it('the URL drives the view: a pasted link with tier and limit requests exactly that', async () => {
    const bff = standardBff();
    renderApp('/?tier=crit&limit=5');
    await screen.findByRole('table');
    const request = bff.calls('/api/v1/hotspots')[0]!;
    expect(request.searchParams.get('tier')).toBe('crit');
    expect(request.searchParams.get('limit')).toBe('5');
    expect(screen.getByRole('checkbox', { name: 'Critical' })).toBeChecked();
    expect(screen.getByRole('spinbutton', { name: 'Rows (1–50)' })).toHaveValue(5);
  });

  it('shows an unknown tier label as-is, in the table and as a filter option', async () => {
    const bff = standardBff();
    const rows = [...HOTSPOTS, hotspot({ iso: 'ZZZ', name: 'Elbonia', risk: 66, tier: 'severe' })];
    bff.set('/api/v1/hotspots', { body: hotspotsBody({ hotspots: rows }) });
    renderApp('/');
    const table = await screen.findByRole('table');
    const row = within(table).getByRole('link', { name: 'Elbonia' }).closest('tr')!;
    expect(within(row).getByText('severe')).toHaveClass('tier-badge', 'tier-other');
    expect(screen.getByRole('checkbox', { name: 'severe' })).toBeInTheDocument();
  });

  it('sorts by a column header and says so to assistive technology', async () => {
    standardBff();
    const { router } = renderApp('/');
    const user = userEvent.setup();
    const table = await screen.findByRole('table');
    await user.click(within(table).getByRole('button', { name: /^Confidence/ }));
    await user.click(within(table).getByRole('button', { name: /^Country/ }));
    await waitFor(() => expect(router.state.location.search).toContain('sort=name'));
    const header = within(table).getByRole('columnheader', { name: /Country/ });
    expect(header).toHaveAttribute('aria-sort', 'ascending');
    const names = within(table)
      .getAllByRole('link')
      .map((link) => link.textContent);
    expect(names).toEqual(["Côte d'Ivoire", 'Russia', 'Sudan', 'Ukraine']);
  });

  it('search filters the rows and finds countries outside the list', async () => {
    standardBff();
    renderApp('/');
    const user = userEvent.setup();
    await screen.findByRole('table');
    await user.type(screen.getByRole('searchbox', { name: 'Search country' }), 'cote');
    // The rows follow the URL as a transition (issue 32, point 7), a moment after the field.
    await waitFor(() =>
      expect(
        within(screen.getByRole('table'))
          .getAllByRole('link')
          .map((l) => l.textContent),
      ).toEqual(["Côte d'Ivoire"]),
    );
    await user.clear(screen.getByRole('searchbox', { name: 'Search country' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search country' }), 'fran');
    expect(await screen.findByRole('link', { name: 'France' })).toHaveAttribute(
      'href',
      '/country/FRA',
    );
  });

  it("offers the provider's two files as plain same-origin links", async () => {
    standardBff();
    renderApp('/');
    const group = await screen.findByRole('group', { name: "The provider's own files" });
    expect(within(group).getByRole('link', { name: 'Raw CSV' })).toHaveAttribute(
      'href',
      '/api/v1/export?format=csv',
    );
    expect(within(group).getByRole('link', { name: 'Raw JSON' })).toHaveAttribute(
      'href',
      '/api/v1/export?format=json',
    );
  });

  it("a country link carries the filtered view, so the country page's back link returns to it", async () => {
    const bff = standardBff();
    bff.set('/api/v1/country/SDN', { body: countryBody({ iso: 'SDN', name: 'Sudan' }) });
    const { router } = renderApp('/?tier=crit');
    const user = userEvent.setup();
    const table = await screen.findByRole('table');
    await user.click(within(table).getByRole('link', { name: 'Sudan' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/country/SDN'));
    const back = await screen.findByRole('link', { name: '← Back to the overview' });
    expect(back).toHaveAttribute('href', '/?tier=crit');
  });
});
