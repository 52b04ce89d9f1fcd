import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  countriesBody,
  countryBody,
  hotspot,
  hotspotsBody,
  statusBody,
  shellRoutes,
} from './fixtures/data';
import {
  batchesRoute,
  changesBody,
  countryHistoryBody,
  countryHistoryRoutes,
  countryPoints,
  historyRoutes,
} from './fixtures/history';
import { installFakeBff } from './fake-bff';
import { notesRoutes } from './fixtures/sites';
import { renderApp } from './render-app';

/*
 * Provider risk ↔ team index on the overview (issue 31): the choice is in the URL (a shared link
 * opens the same view) and asks the BFF for the team view; the provider's figure is one click
 * away, labelled.
 */
function bff(teamChanges: object = TEAM_CHANGES) {
  return installFakeBff({
    ...shellRoutes(),
    '/api/status': { body: statusBody() },
    ...historyRoutes(),
    // What changed in the team view: the team index's moves, the provider's under `provider`.
    '/api/changes': (url) =>
      url.searchParams.get('index') === 'team'
        ? { body: { ...changesBody(), ...teamChanges } }
        : { body: changesBody() },
    ...countryHistoryRoutes({ SDN: 'Sudan' }),
    '/api/countries': (url) => {
      const body = countriesBody();
      if (url.searchParams.get('index') !== 'team') return { body };
      // The team view: each row's risk is the team index, the provider's under `provider`.
      const countries = body.countries.map((row) =>
        row.iso === 'SDN' ? { ...row, risk: 91.25, ...PROVIDER_SDN } : row,
      );
      return { body: { ...body, countries, index: { kind: 'team', name: 'Logistics view' } } };
    },
    '/api/v1/hotspots': (url) => {
      if (url.searchParams.get('index') !== 'team') return { body: hotspotsBody() };
      // The team view ranks by the team index: Sudan first, overridden to High.
      return {
        body: hotspotsBody({
          index: { kind: 'team', name: 'Logistics view' },
          hotspots: [
            hotspot({
              iso: 'SDN',
              name: 'Sudan',
              risk: 91.25,
              tier: 'high',
              ...PROVIDER_SDN,
              tier_source: 'override',
            } as never),
            hotspot({ iso: 'UKR', name: 'Ukraine', risk: 55.5, tier: 'mod' }),
          ],
        } as never),
      };
    },
  });
}

const PROVIDER_SDN = { provider: { risk: 84.5, tier: 'crit' } };

const TEAM_NOTE = { kind: 'team', name: 'Logistics view' };
const TEAM_CHANGES = {
  index: TEAM_NOTE,
  countries: [
    { ...changesBody().countries[1]!, delta_risk: 4.75, provider: { delta_risk: -2.1 } },
    { ...changesBody().countries[0]!, delta_risk: -1.5, provider: { delta_risk: 13.2 } },
  ],
};

const OVERRIDE = {
  iso: 'UKR',
  tier: 'mod',
  reason: 'Ceasefire holds along the line',
  expires: '2025-07-01T00:00:00.000Z',
  set_at: '2025-06-01T00:00:00.000Z',
  set_by: 'Eddie Editor',
  version: 1,
};

describe('the risk index switch', () => {
  it('puts the team view in the URL, asks for it, and names it; the provider is one click away', async () => {
    const fake = bff();
    const { router } = renderApp('/');
    const provider = await screen.findByRole('button', { name: 'Provider’s risk' });
    expect(provider).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(screen.getByRole('button', { name: /^Team index/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?index=team'));
    expect(
      await screen.findByRole('button', { name: 'Team index: Logistics view' }),
    ).toHaveAttribute('aria-pressed', 'true');
    expect(fake.calls('/api/countries').some((u) => u.searchParams.get('index') === 'team')).toBe(
      true,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Provider’s risk' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('a shared link with ?index=team opens the team view', async () => {
    const fake = bff();
    renderApp('/?index=team');
    expect(
      await screen.findByRole('button', { name: 'Team index: Logistics view' }),
    ).toHaveAttribute('aria-pressed', 'true');
    expect(fake.calls('/api/countries').every((u) => u.searchParams.get('index') === 'team')).toBe(
      true,
    );
  });
});

describe('the team view on the overview and the country page', () => {
  it('ranks the hotspot table (and the map markers it shares) by the team index', async () => {
    const fake = bff();
    renderApp('/?index=team');
    const table = await screen.findByRole('table', { name: /hotspot/i });
    await waitFor(() => expect(within(table).getAllByRole('row')[1]).toHaveTextContent('Sudan'));
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent('91.25');
    expect(screen.getByText(/risk and tier are the team index “Logistics view”/)).toBeVisible();
    const hotspotCalls = fake.calls('/api/v1/hotspots');
    expect(hotspotCalls.length).toBeGreaterThan(0);
    expect(hotspotCalls.every((u) => u.searchParams.get('index') === 'team')).toBe(true);
  });

  it('gives the hotspot table the team index’s change, and says so', async () => {
    const fake = bff();
    renderApp('/?index=team');
    const table = await screen.findByRole('table', { name: /hotspot/i });
    const sudan = () => within(table).getAllByRole('row')[1]!;
    await waitFor(() => expect(sudan()).toHaveTextContent('+4.75'));
    expect(within(table).getAllByRole('row')[2]).toHaveTextContent('−1.50');
    expect(
      screen.getByText(/Δ risk is the team index’s change since the batch before/),
    ).toBeVisible();
    expect(fake.calls('/api/changes').some((u) => u.searchParams.get('index') === 'team')).toBe(
      true,
    );
  });

  it('the strip under the index lists the team index’s moves, and says so', async () => {
    bff();
    renderApp('/?index=team');
    const strip = await screen.findByRole('region', {
      name: 'Moved since the previous recorded batch',
    });
    expect(await within(strip).findByText('Team index rose')).toHaveAttribute(
      'title',
      'Team index “Logistics view”',
    );
    expect(strip).toHaveTextContent(/Team index rose\s*Sudan\s*▲ up \+4\.75/);
    expect(strip).toHaveTextContent(/Team index fell\s*Ukraine/);
    expect(strip).not.toHaveTextContent('13.2');
  });

  it('says the team index’s changes are being computed, and shows no provider figure as ours', async () => {
    bff({ index: { ...TEAM_NOTE, computing: { batches_left: 700 } }, countries: [] });
    renderApp('/?index=team');
    const table = await screen.findByRole('table', { name: /hotspot/i });
    expect(
      await screen.findByText(/the team index’s changes are still being computed/),
    ).toBeVisible();
    const sudan = within(table).getAllByRole('row')[1]!;
    expect(sudan).toHaveTextContent('Sudan');
    // The provider's own figure (Δ 0.8 in the fixture, starred) is not shown in the team view.
    expect(sudan).not.toHaveTextContent('0.80');
    expect(within(sudan).queryByText('(the provider’s own figure)', { exact: false })).toBeNull();
  });

  it('All countries shows the provider’s risk in a labelled column beside the team index', async () => {
    bff();
    renderApp('/?index=team&table=all');
    const table = await screen.findByRole('table', { name: /every country/i });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent ?? '');
    const team = headers.findIndex((h) => h.startsWith('Team index'));
    expect(team).toBeGreaterThan(-1);
    expect(headers[team + 1]).toMatch(/^Provider’s risk/);
    const sudan = await within(table).findByRole('row', { name: /Sudan/ });
    const cells = within(sudan)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells).toContain('91.25');
    expect(cells).toContain('84.50');
  });

  it('shows the team index with the provider’s figure and our override beside it', async () => {
    const override = OVERRIDE;
    const fake = installFakeBff({
      ...shellRoutes(),
      '/api/status': { body: statusBody() },
      ...historyRoutes(),
      '/api/countries': { body: countriesBody() },
      '/api/history/country/UKR': (url) => ({
        body:
          url.searchParams.get('index') === 'team'
            ? { ...countryHistoryBody(), index: { kind: 'team', name: 'Logistics view' } }
            : countryHistoryBody(),
      }),
      '/api/v1/country/UKR': (url) =>
        url.searchParams.get('index') === 'team'
          ? {
              body: countryBody(
                {
                  risk: 61.4,
                  tier: 'mod',
                  provider: { risk: 86.12, tier: 'crit' },
                  tier_source: 'override',
                  override,
                } as never,
                { index: { kind: 'team', name: 'Logistics view' } },
              ),
            }
          : { body: countryBody() },
    });
    const { router } = renderApp('/country/UKR?index=team');
    const header = await screen.findByRole('region', { name: /Ukraine/ });
    expect(within(header).getByTestId('country-risk')).toHaveTextContent('61.40');
    const figures = await screen.findByTestId('team-figures');
    expect(figures).toHaveTextContent('team index “Logistics view”');
    expect(figures).toHaveTextContent('Provider’s risk: 86.12');
    expect(within(figures).getByRole('note')).toHaveTextContent(
      /Our override:\s*Moderate\s*instead of the provider’s\s*Critical, because “Ceasefire holds along the line”.*ends 1 Jul 2025/,
    );
    expect(
      await screen.findByRole('heading', { name: 'Trend of the team index “Logistics view”' }),
    ).toBeVisible();
    expect(
      fake.calls('/api/history/country/UKR').some((u) => u.searchParams.get('index') === 'team'),
    ).toBe(true);
    // The provider's figure is one click away, and the link then reads as the provider's view.
    await userEvent.click(screen.getByRole('button', { name: 'Provider’s risk' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(() => expect(screen.queryByTestId('team-figures')).toBeNull());
    expect(screen.getByTestId('country-risk')).toHaveTextContent('86.12');
  });
});

describe('the team view on compare', () => {
  it('compares the team index of each country, with the switch back to the provider’s', async () => {
    const points = countryPoints(4);
    const answer = (iso: string, name: string) => (url: URL) => {
      const body = countryHistoryBody(iso, name, points);
      if (url.searchParams.get('index') !== 'team') return { body };
      const team = points.map((p) => ({ ...p, risk: 42.42 }));
      return {
        body: {
          ...countryHistoryBody(iso, name, team),
          index: { kind: 'team', name: 'Logistics view' },
        },
      };
    };
    const fake = installFakeBff({
      ...shellRoutes(),
      '/api/status': { body: statusBody() },
      '/api/countries': { body: countriesBody() },
      ...historyRoutes(),
      '/api/history/country/MLI': answer('MLI', 'Mali'),
      '/api/history/country/NER': answer('NER', 'Niger'),
    });
    const { router } = renderApp('/compare?iso=MLI,NER&index=team&view=table');
    const numbers = await screen.findByRole('region', { name: 'Key numbers' });
    const rows = within(numbers).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('42.42');
    expect(screen.getByRole('button', { name: 'Team index: Logistics view' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(
      fake.calls('/api/history/country/MLI').every((u) => u.searchParams.get('index') === 'team'),
    ).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Provider’s risk' }));
    await waitFor(() =>
      expect(new URLSearchParams(router.state.location.search).get('index')).toBeNull(),
    );
    expect(new URLSearchParams(router.state.location.search).get('iso')).toBe('MLI,NER');
    await waitFor(() =>
      expect(
        within(screen.getByRole('region', { name: 'Key numbers' })).getAllByRole('row')[1],
      ).not.toHaveTextContent('42.42'),
    );
  });
});

describe('the team view in a brief', () => {
  it('prints the team index with the provider’s figure and our override beside it', async () => {
    const fake = installFakeBff({
      ...shellRoutes(),
      '/api/status': { body: statusBody() },
      ...historyRoutes(),
      '/api/alerts': { body: { ok: true, alerts: [], next_before: null } },
      // The brief names the method beside the batch id and prints the country's notes.
      '/api/batches': batchesRoute(60),
      ...notesRoutes(['UKR']),
      '/api/v1/country/UKR': (url) =>
        url.searchParams.get('index') === 'team'
          ? {
              body: countryBody(
                {
                  risk: 61.4,
                  tier: 'mod',
                  provider: { risk: 86.12, tier: 'crit' },
                  tier_source: 'override',
                  override: { ...OVERRIDE, iso: 'UKR' },
                } as never,
                { index: { kind: 'team', name: 'Logistics view' } },
              ),
            }
          : { body: countryBody() },
    });
    renderApp('/brief?iso=UKR&index=team');
    const block = await screen.findByRole('region', { name: /Ukraine/ });
    expect(await within(block).findByText('Team index “Logistics view”')).toBeVisible();
    expect(within(block).getByText('Provider’s risk').nextElementSibling).toHaveTextContent(
      '86.12 Critical',
    );
    expect(within(block).getByText('Our override').nextElementSibling).toHaveTextContent(
      /Moderate\s*“Ceasefire holds along the line”, until 1 Jul 2025/,
    );
    expect(
      fake.calls('/api/v1/country/UKR').every((u) => u.searchParams.get('index') === 'team'),
    ).toBe(true);
  });
});
