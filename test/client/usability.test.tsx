import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  countriesBody,
  countryBody,
  hotspot,
  HOTSPOTS,
  hotspotsBody,
  statusBody,
} from './fixtures/data';
import { installFakeBff } from './fake-bff';
import { renderApp } from './render-app';

// Issue 11: what a new user tripped over (component tests through the real app and router).

const UK = hotspot({
  iso: 'GBR',
  name: 'United Kingdom of Great Britain and Northern Ireland',
  risk: 30,
  tier: 'low',
});

function overviewBff() {
  return installFakeBff({
    '/api/status': { body: statusBody() },
    '/api/countries': { body: countriesBody({ countries: [...HOTSPOTS, UK] }) },
    '/api/v1/hotspots': (url) => {
      const tier = url.searchParams.get('tier');
      if (tier !== null && !/^[a-z,]+$/.test(tier)) {
        return { status: 400, body: { ok: false, error: `tier "${tier}" is not a tier label` } };
      }
      const tiers = tier?.split(',') ?? null;
      const rows = tiers ? HOTSPOTS.filter((h) => tiers.includes(h.tier ?? '')) : HOTSPOTS;
      return { body: hotspotsBody({ hotspots: rows }) };
    },
  });
}

function rowOf(name: string): HTMLElement {
  const link = within(screen.getByRole('table')).getByRole('link', { name });
  return link.closest('tr') as HTMLElement;
}

describe('"#" is the rank in the whole run (point 5)', () => {
  it("a tier filter keeps each country's real rank", async () => {
    overviewBff();
    renderApp('/?tier=mod');
    await screen.findByRole('link', { name: "Côte d'Ivoire" });
    // Côte d'Ivoire is 4th by risk in the batch; it is the only Moderate row.
    await waitFor(() =>
      expect(within(rowOf("Côte d'Ivoire")).getAllByRole('cell')[0]).toHaveTextContent(/^4$/),
    );
  });

  it('without a filter "#" is the position in the list', async () => {
    overviewBff();
    renderApp('/');
    await screen.findByRole('link', { name: 'Sudan' });
    expect(within(rowOf('Sudan')).getAllByRole('cell')[0]).toHaveTextContent(/^2$/);
  });
});

describe('tier case in the URL (point 9)', () => {
  it('/?tier=CRIT shows the critical rows and corrects the URL', async () => {
    const bff = overviewBff();
    const { router } = renderApp('/?tier=CRIT');
    await screen.findByRole('link', { name: 'Ukraine' });
    expect(screen.queryByRole('link', { name: 'Russia' })).not.toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe('?tier=crit'));
    expect(bff.calls('/api/v1/hotspots').map((u) => u.searchParams.get('tier'))).not.toContain(
      'CRIT',
    );
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('a refused request offers no "Try again" that would be refused again', async () => {
    installFakeBff({
      '/api/status': { body: statusBody() },
      '/api/countries': { body: countriesBody() },
      '/api/v1/hotspots': { status: 400, body: { ok: false, error: 'limit must be 1 to 50' } },
    });
    renderApp('/');
    const alert = await screen.findByText(/limit must be 1 to 50/);
    expect(alert.closest('[role="alert"]')).not.toBeNull();
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
  });
});

describe('search finds common names (point 10)', () => {
  it('"UK" finds the United Kingdom and "Ivory" finds Côte d\'Ivoire', async () => {
    overviewBff();
    renderApp('/');
    const search = await screen.findByRole('searchbox');
    await userEvent.type(search, 'UK');
    // Ukraine (name) in the table, the United Kingdom (alias) among matches outside the rows.
    expect(await screen.findByRole('link', { name: 'Ukraine' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: /United Kingdom/ })).toBeInTheDocument();
    await userEvent.clear(search);
    await userEvent.type(search, 'Ivory');
    expect(await screen.findByRole('link', { name: "Côte d'Ivoire" })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Ukraine' })).not.toBeInTheDocument();
  });
});

describe('unknown codes and names (point 8)', () => {
  it('/country/XXX says it is not a country code', async () => {
    installFakeBff({
      '/api/status': { body: statusBody() },
      '/api/v1/country/XXX': { status: 404, body: { ok: false, error: 'not found' } },
    });
    renderApp('/country/XXX');
    expect(
      await screen.findByRole('heading', { level: 1, name: '“XXX” is not a country code' }),
    ).toBeInTheDocument();
    expect(screen.queryByText(/low baseline/)).not.toBeInTheDocument();
  });

  it('/country/ISL names Iceland and says it has no current data', async () => {
    installFakeBff({
      '/api/status': { body: statusBody() },
      '/api/v1/country/ISL': { status: 404, body: { ok: false, error: 'not found' } },
    });
    renderApp('/country/ISL');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Iceland: no current data' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/Iceland is not in the current data/)).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Iceland · Global Risk Dashboard'));
  });
});

describe('cold outage on a country page (point 7)', () => {
  it('says at once that the data service cannot be reached, with when to try again', async () => {
    const bff = installFakeBff({
      '/api/status': {
        body: statusBody({
          upstream: { health: 'down', last_error: null, message: null },
        }),
      },
      '/api/v1/country/UKR': {
        status: 503,
        headers: { 'Retry-After': '120' },
        body: { ok: false, error: 'The data service cannot be reached', retry_after_seconds: 120 },
      },
    });
    renderApp('/country/UKR');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(/cannot be reached/);
    expect(alert).toHaveTextContent(/Try again at \d\d:\d\d UTC/);
    // The BFF said when: asking again sooner only repeats the wait.
    expect(bff.calls('/api/v1/country/UKR')).toHaveLength(1);
    // The banner does not promise cached data that this page does not have.
    expect(screen.queryByText(/Cached data stays on screen/)).not.toBeInTheDocument();
    expect(countryBody).toBeDefined();
  });
});
