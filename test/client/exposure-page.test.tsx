import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  countriesBody,
  countryBody,
  hotspot,
  hotspotsBody,
  statusBody,
  shellRoutes,
} from './fixtures/data';
import { historyRoutes } from './fixtures/history';
import {
  exposureBody,
  importBody,
  site,
  sitesBody,
  withHistory,
  storeRoutes,
} from './fixtures/sites';
import { installFakeBff } from './fake-bff';
import { renderApp } from './render-app';

function exposureBff(extra: Parameters<typeof installFakeBff>[0] = {}) {
  return installFakeBff({
    ...shellRoutes(),
    ...storeRoutes(),
    ...historyRoutes(),
    '/api/status': { body: statusBody(withHistory) },
    '/api/exposure': { body: exposureBody() },
    '/api/sites': { body: sitesBody() },
    '/api/sites/alert-delivery': { status: 404, body: { ok: false, error: 'not in this test' } },
    // The country names the filters offer, and what a site's or country's page shows besides.
    '/api/countries': { body: countriesBody() },
    '/api/v1/hotspots': { body: hotspotsBody() },
    '/api/country/UKR/explain': { status: 404, body: { ok: false, error: 'no move' } },
    ...extra,
  });
}

/** The method, content type and body of every fetch to `path`. */
function sent(path: string) {
  return vi
    .mocked(fetch)
    .mock.calls.map(([input, init]) => ({ url: new URL(String(input), 'http://t'), init }))
    .filter(({ url }) => url.pathname === path)
    .map(({ url, init }) => ({
      search: url.search,
      method: init?.method ?? 'GET',
      type: (init?.headers as Record<string, string> | undefined)?.['Content-Type'],
      body: init?.body,
    }));
}

describe('/exposure', () => {
  it("the team switch asks for our tiers and shows the provider's count beside them (issue 31)", async () => {
    const team = exposureBody({
      by_tier: [{ tier: 'crit', sites: 3, people: 75, value: 0, overridden: 1 }],
      provider: {
        by_tier: [
          { tier: 'low', sites: 1, people: 5, value: 0, overridden: 0 },
          { tier: 'crit', sites: 2, people: 70, value: 0, overridden: 0 },
        ],
      },
      team_index: { kind: 'team', name: 'Logistics view' },
    });
    const bff = exposureBff({ '/api/exposure?weight=people&index=team': { body: team } });
    renderApp('/exposure');
    await screen.findByRole('region', { name: 'Sites and people by tier' });
    await userEvent.click(screen.getByRole('button', { name: /^Team index/ }));
    const tiers = screen.getByRole('region', { name: 'Sites and people by tier' });
    await within(tiers).findByRole('columnheader', { name: 'Provider’s tier: people' });
    expect(bff.calls('/api/exposure').map((u) => u.search)).toContain('?weight=people&index=team');
    const crit = within(tiers).getAllByRole('row').at(-1)!;
    // Ours: 3 sites, 75 people; the provider's: 2 sites, 70 people.
    expect(
      within(crit)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['3', '75', '2', '70']);
  });

  it('asks for the view in the URL and shows it: tiers, what moved in 7 days, riskiest sites', async () => {
    const bff = exposureBff();
    renderApp('/exposure?moved=week&weight=value&tier=crit');
    const moved = await screen.findByRole('region', { name: "Where our sites' countries moved" });
    expect(bff.calls('/api/exposure').map((u) => u.search)).toEqual(['?tier=crit&weight=value']);
    expect(within(moved).getByRole('radio', { name: '7 days' })).toBeChecked();
    expect(within(moved).getByRole('link', { name: 'Ukraine' })).toHaveAttribute(
      'href',
      '/country/UKR',
    );
    expect(moved).toHaveTextContent('2 sites, 70 people: Kyiv office');
    expect(within(moved).getByRole('link', { name: 'Kyiv office' })).toHaveAttribute(
      'href',
      '/sites/1',
    );
    const tiers = screen.getByRole('region', { name: 'Sites and people by tier' });
    expect(
      within(tiers)
        .getAllByRole('rowheader')
        .map((c) => c.textContent),
    ).toEqual(['Critical', 'Low']);
    expect(screen.getByRole('radio', { name: 'Value' })).toBeChecked();
    const riskiest = screen.getByRole('region', { name: 'Riskiest sites' });
    expect(within(riskiest).getByRole('link', { name: 'Kyiv office' })).toBeInTheDocument();
    // Issue 33, point 6: the ranking's formula is stated, and each site's weighted risk and exposure shown.
    expect(riskiest).toHaveTextContent('Ranked by exposure = people × weighted risk ÷ 100');
    expect(within(riskiest).getByRole('row', { name: /Kyiv office/ })).toHaveTextContent(
      /86\.1240.*43\.06$/,
    );
    // Each table scrolls sideways on a phone in a named box that keys can reach.
    for (const [panel, box] of [
      [tiers, 'Sites by tier table'],
      [riskiest, 'Riskiest sites table'],
    ] as const) {
      expect(within(panel).getByRole('region', { name: box })).toHaveAttribute('tabindex', '0');
    }
    expect(screen.getByRole('link', { name: /Download the sites/ })).toHaveAttribute(
      'href',
      '/api/spreadsheet/sites.csv?tier=crit',
    );
  });

  it('writes a filter to the URL and asks again with it', async () => {
    const bff = exposureBff();
    const { router } = renderApp('/exposure');
    await screen.findByRole('region', { name: 'Riskiest sites' });
    await userEvent.selectOptions(screen.getByLabelText('Kind'), 'plant');
    await userEvent.click(screen.getByRole('radio', { name: 'Value' }));
    expect(router.state.location.search).toBe('?kind=plant&weight=value');
    await waitFor(() =>
      expect(bff.calls('/api/exposure').map((u) => u.search)).toContain('?kind=plant&weight=value'),
    );
    // The country choices are the countries of our sites.
    expect(
      within(screen.getByLabelText('Country'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All countries', 'Ukraine']);
  });

  it('checks an import first (a dry run), lists rejected rows with reasons, then imports', async () => {
    const bff = exposureBff({
      '/api/sites/import': (url) => ({
        body: importBody({ dry_run: url.searchParams.get('dry_run') === '1' }),
      }),
    });
    renderApp('/exposure');
    await screen.findByRole('region', { name: 'Riskiest sites' });
    const csv = 'ref;name;kind;lat;lng\nWAW-1;Warsaw;office;52.2;21';
    const box = screen.getByLabelText('Or paste the rows');
    await userEvent.click(box);
    await userEvent.paste(csv);
    const importButton = screen.getByRole('button', { name: 'Import' });
    expect(importButton).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Check (dry run)' }));
    const panel = screen.getByRole('region', { name: 'Import sites' });
    expect(
      await within(panel).findByText(
        'Checked 3 rows, nothing stored yet: 1 to create, 1 to update, 0 unchanged, 1 rejected. 2 sites after the import.',
      ),
    ).toBeInTheDocument();
    expect(sent('/api/sites/import')).toEqual([
      { search: '?dry_run=1', method: 'POST', type: 'text/csv; charset=utf-8', body: csv },
    ]);
    const rejected = within(panel).getByRole('table', { name: /Rejected rows/ });
    expect(within(rejected).getAllByRole('row')[1]).toHaveTextContent(
      '4SEA-1the point is 400 km from any country',
    );
    for (const box of ['Rejected rows table', 'Sites to update table']) {
      expect(within(panel).getByRole('region', { name: box })).toHaveAttribute('tabindex', '0');
    }
    expect(within(panel).getByRole('table', { name: 'Sites to update' })).toHaveTextContent(
      'UKR (placed by distance',
    );
    const asked = bff.calls('/api/exposure').length;
    await userEvent.click(within(panel).getByRole('button', { name: 'Import 2 sites' }));
    expect(await within(panel).findByText(/^Imported 3 rows/)).toBeInTheDocument();
    expect(sent('/api/sites/import').map((r) => r.search)).toEqual(['?dry_run=1', '']);
    // What an import changes is asked again.
    await waitFor(() => expect(bff.calls('/api/exposure').length).toBeGreaterThan(asked));
  });

  it('asks for a new check when the rows change after one', async () => {
    exposureBff({ '/api/sites/import': { method: 'POST', body: importBody() } });
    renderApp('/exposure');
    await screen.findByRole('region', { name: 'Riskiest sites' });
    const box = screen.getByLabelText('Or paste the rows');
    await userEvent.click(box);
    await userEvent.paste('ref,name,kind,lat,lng\nA,B,office,1,2');
    await userEvent.click(screen.getByRole('button', { name: 'Check (dry run)' }));
    await screen.findByRole('button', { name: 'Import 2 sites' });
    await userEvent.type(box, 'x');
    expect(screen.getByRole('button', { name: 'Import' })).toBeDisabled();
    expect(screen.getByText(/The rows changed since the check/)).toBeInTheDocument();
  });

  it('is listed in the navigation', async () => {
    exposureBff({ '/api/v1/country/UKR': { body: countryBody() } });
    renderApp('/country/UKR');
    const nav = await screen.findByRole('navigation', { name: /Exposure/ });
    expect(within(nav).getByRole('link', { name: 'Exposure' })).toHaveAttribute(
      'href',
      '/exposure',
    );
  });
});

describe('the exposure brief', () => {
  it('is linked from /exposure with the view, and prints that view with its batch time', async () => {
    const bff = exposureBff();
    const { router } = renderApp('/exposure?kind=plant&weight=value');
    await screen.findByRole('region', { name: 'Riskiest sites' });
    await userEvent.click(screen.getByRole('link', { name: 'Exposure brief (print)' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Exposure brief' })).toBeVisible();
    expect(router.state.location.pathname).toBe('/exposure/brief');
    expect(router.state.location.search).toBe('?kind=plant&weight=value');
    expect(bff.calls('/api/exposure').map((u) => u.search)).toEqual(['?kind=plant&weight=value']);
    expect(
      screen.getByText(/^Data of the batch of 2 Jun 2025, 10:00 UTC · Our sites of kind plant/),
    ).toBeInTheDocument();
    // Every printed page carries the batch time (an @page margin box).
    expect(document.querySelector('style')?.textContent ?? '').toContain(
      'Data of the batch of 2 Jun 2025, 10:00 UTC',
    );
    for (const region of [
      'Sites and people by tier',
      "Where our sites' countries moved",
      'Riskiest sites',
      'Exposure index over the stored history',
    ]) {
      expect(screen.getByRole('region', { name: region })).toBeInTheDocument();
    }
    const moved = screen.getByRole('region', { name: "Where our sites' countries moved" });
    expect(within(moved).getByRole('heading', { name: /^In 7 days/ })).toBeInTheDocument();
    expect(within(moved).getByRole('link', { name: 'Ukraine' })).toBeInTheDocument();
  });
});

describe('our sites on the country page and the site page', () => {
  it('shows "Our sites here" with count, people and links when there are sites', async () => {
    const bff = exposureBff({
      '/api/v1/country/UKR': { body: countryBody() },
      ...historyRoutes(),
      '/api/sites': {
        body: sitesBody([site(), site({ id: 2, ref: 'ODS', name: 'Odesa port', people: 12 })]),
      },
    });
    renderApp('/country/UKR');
    const here = await screen.findByRole('region', { name: 'Our sites here' });
    expect(here).toHaveTextContent('2 sites, 52 people.');
    expect(
      within(here)
        .getAllByRole('link')
        .map((l) => l.getAttribute('href')),
    ).toEqual(['/exposure?country=UKR', '/sites/1', '/sites/2']);
    expect(bff.calls('/api/sites').map((u) => u.search)).toContain('?country=UKR&limit=2000');
  });

  it('leaves "Our sites here" out when the country has none', async () => {
    const bff = exposureBff({
      '/api/v1/country/UKR': { body: countryBody() },
      ...historyRoutes(),
      '/api/sites': { body: sitesBody([]) },
    });
    renderApp('/country/UKR');
    await screen.findByRole('heading', { level: 1 });
    // The country's own sites, and every site (for those within reach).
    await waitFor(() => expect(bff.calls('/api/sites')).toHaveLength(2));
    expect(screen.queryByRole('region', { name: 'Our sites here' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Our sites within reach' })).toBeNull();
  });

  it('shows a site: its country, the nearest hotspots with distances, the countries within reach', async () => {
    exposureBff({
      '/api/sites/1': { body: { ok: true, site: site() } },
      '/api/v1/hotspots': {
        body: hotspotsBody({
          hotspots: [
            hotspot({ iso: 'SYR', name: 'Syria', lat: 35, lng: 38 }),
            hotspot({ iso: 'UKR', name: 'Ukraine', lat: 49, lng: 32 }),
          ],
        }),
      },
      '/api/countries': { body: countriesBody() },
      '/api/v1/country/UKR': { body: countryBody() },
      ...historyRoutes(),
    });
    renderApp('/sites/1');
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('Kyiv office');
    const hotspots = await screen.findByRole('region', { name: 'Nearest hotspots' });
    const rows = within(hotspots).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getByRole('rowheader').textContent)).toEqual([
      'Ukraine',
      'Syria',
    ]);
    // Issue 33, point 6: the site's own country was at its centre's distance here ("Ukraine
    // 452 km") and at 0 km below; one distance per country now, the nearest border said once.
    expect(rows[0]).toHaveTextContent(/Site is here$/);
    expect(rows[1]).toHaveTextContent(/\d+ km to its centre$/);
    const reach = screen.getByRole('region', { name: 'Countries within reach' });
    expect(within(reach).getAllByRole('row')[1]).toHaveTextContent(/Ukraine.*Site is here/);
    expect(within(reach).getAllByRole('row')[2]).toHaveTextContent('Belarus');
    expect(within(reach).getAllByRole('row')[2]).toHaveTextContent('90 km');
    expect(reach).toHaveTextContent('Nearest border: Belarus, 90 km.');
    for (const [panel, box] of [
      [hotspots, 'Nearest hotspots table'],
      [reach, 'Countries within reach table'],
    ] as const) {
      expect(within(panel).getByRole('region', { name: box })).toHaveAttribute('tabindex', '0');
    }
    expect(screen.getByRole('region', { name: 'The site and its country' })).toHaveTextContent(
      '86.12',
    );
  });

  it('lists our sites in other countries with this one within their radius, nearest first', async () => {
    const bff = exposureBff({
      '/api/v1/country/UKR': { body: countryBody() },
      ...historyRoutes(),
      '/api/sites': (url) => ({
        body: url.searchParams.has('country')
          ? sitesBody([site()])
          : sitesBody([
              site(),
              site({
                id: 2,
                name: 'Lublin warehouse',
                iso: 'POL',
                people: 35,
                nearby: [
                  { iso: 'POL', km: 0 },
                  { iso: 'UKR', km: 80 },
                ],
              }),
              site({
                id: 3,
                name: 'Minsk office',
                iso: 'BLR',
                people: 5,
                nearby: [
                  { iso: 'BLR', km: 0 },
                  { iso: 'UKR', km: 40 },
                ],
              }),
              // Ukraine beyond the default 100 km: not within reach ...
              site({
                id: 4,
                name: 'Warsaw office',
                iso: 'POL',
                nearby: [
                  { iso: 'POL', km: 0 },
                  { iso: 'UKR', km: 150 },
                ],
              }),
              // ... unless the site's rule reaches that far.
              site({
                id: 5,
                name: 'Chisinau depot',
                iso: 'MDA',
                people: null,
                nearby: [
                  { iso: 'MDA', km: 0 },
                  { iso: 'UKR', km: 150 },
                ],
                alert: { on: true, radius_km: 200, min_delta: 10 },
              }),
            ]),
      }),
    });
    renderApp('/country/UKR');
    const reach = await screen.findByRole('region', { name: 'Our sites within reach' });
    expect(within(reach).getByRole('region', { name: 'Sites within reach table' })).toHaveAttribute(
      'tabindex',
      '0',
    );
    expect(reach).toHaveTextContent(
      '3 sites in other countries, 40 people, with Ukraine within their alert radius.',
    );
    const rows = within(reach).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getByRole('rowheader').textContent)).toEqual([
      'Minsk office office',
      'Lublin warehouse office',
      'Chisinau depot office',
    ]);
    expect(rows[1]).toHaveTextContent('Poland80 km35');
    expect(within(rows[1]!).getByRole('link', { name: 'Lublin warehouse' })).toHaveAttribute(
      'href',
      '/sites/2',
    );
    expect(bff.calls('/api/sites').map((u) => u.search)).toEqual(
      // Our sites here (filtered) and every site, for those within reach; each follows pages.
      expect.arrayContaining(['?country=UKR&limit=2000', '?limit=2000']),
    );
  });

  it("marks the countries within the site rule's own radius", async () => {
    exposureBff({
      '/api/sites/1': {
        body: { ok: true, site: site({ alert: { on: true, radius_km: 50, min_delta: 10 } }) },
      },
      '/api/v1/hotspots': { body: hotspotsBody() },
      '/api/countries': { body: countriesBody() },
      '/api/v1/country/UKR': { body: countryBody() },
      ...historyRoutes(),
    });
    renderApp('/sites/1');
    const reach = await screen.findByRole('region', { name: 'Countries within reach' });
    expect(reach).toHaveTextContent(
      'The site rule watches every country within 50 km of the site.',
    );
    const rows = within(reach).getAllByRole('row');
    expect(within(rows[0]!).getAllByRole('columnheader').at(-1)).toHaveTextContent('Within 50 km');
    expect(rows[1]).toHaveTextContent(/Ukraine.*Site is hereYes$/);
    expect(rows[2]).toHaveTextContent(/Belarus.*90 kmNo$/);
  });

  it('says "No such site" for a site that is not there', async () => {
    exposureBff({ '/api/sites/9': { status: 404, body: { ok: false, error: 'no site 9' } } });
    renderApp('/sites/9');
    expect(await screen.findByRole('heading', { name: 'No such site' })).toBeInTheDocument();
  });
});
