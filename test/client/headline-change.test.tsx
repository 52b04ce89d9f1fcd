import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ExplainResponse } from '../../src/shared/explain-api';
import { shapeTooltip } from '../../src/client/features/map/utils/choropleth';
import {
  countriesBody,
  countryBody,
  hotspot,
  hotspotsBody,
  shellRoutes,
  statusBody,
} from './fixtures/data';
import { changesBody, coverage, explainBody, historyRoutes } from './fixtures/history';
import { storeRoutes } from './fixtures/sites';
import { installFakeBff } from './fake-bff';
import { renderApp } from './render-app';

/*
 * Issue 33, point 1: one headline change. Ukraine's provider figure says "down 0.66" while the
 * two batches recorded here say +6.01: ours is the headline, the provider's is named as its own
 * figure and never drawn as a fall in green.
 */

/** The same move in the team view: our index +2.5, the provider's +6.01 beside it. */
function teamExplainBody(): ExplainResponse {
  return {
    ...explainBody(),
    delta_risk: 2.5,
    sentence:
      'Team index "Logistics view" +2.5 (provider\'s risk +6.0): security +5.0 (our weight 100 %)',
    provider: { delta_risk: 6.01, sentence: 'Risk +6.0' },
    categories: [
      { category: 'security', delta_score: 5, weight: 1, delta_static: 0, delta_active: 5 },
    ],
  };
}

describe('one headline change (issue 33, point 1)', () => {
  it("the country header leads with ours and names the provider's disagreeing figure", async () => {
    installFakeBff({
      ...shellRoutes(),
      ...storeRoutes(),
      '/api/status': { body: statusBody({ history: coverage() }) },
      '/api/v1/country/UKR': { body: countryBody({ delta_headline: -0.66 }) },
      ...historyRoutes(),
      '/api/country/UKR/explain': { body: explainBody() },
    });
    renderApp('/country/UKR');
    const deltas = await screen.findByTestId('country-deltas');
    await within(deltas).findByText(
      /Up 6\.01 in risk score since the previous batch recorded here/,
    );
    const provider = within(deltas).getByTestId('provider-delta');
    expect(provider).toHaveTextContent(/Provider.s own figure −0\.66/);
    expect(provider).toHaveTextContent(/differs from the batches recorded here/);
    // Not "Down" anywhere, nothing drawn in the falling colour.
    expect(deltas.textContent).not.toMatch(/Down 0\.66/);
    expect(provider.closest('.delta-down')).toBeNull();
    expect(provider.querySelector('.delta-down')).toBeNull();
  });

  it("in the team view the header and why it moved give the team index's move, the provider's beside it (issue 31)", async () => {
    installFakeBff({
      ...shellRoutes(),
      ...storeRoutes(),
      '/api/status': { body: statusBody({ history: coverage() }) },
      '/api/v1/country/UKR': {
        body: countryBody(
          { delta_headline: -0.66, risk: 61.4, provider: { risk: 86.12, tier: 'crit' } } as never,
          {
            index: {
              kind: 'team',
              name: 'Logistics view',
              weights: { security: 3, economic: 1, health: 0 },
            },
          },
        ),
      },
      ...historyRoutes(),
      '/api/country/UKR/explain': { body: explainBody() },
      '/api/country/UKR/explain?index=team': { body: teamExplainBody() },
    });
    renderApp('/country/UKR?index=team');
    const deltas = await screen.findByTestId('country-deltas');
    await userEvent.click((await screen.findAllByText('Why it moved'))[0]!);
    await screen.findByText(/^Team index "Logistics view" \+2\.5/);
    expect(screen.getByText(/The provider.s move: Risk \+6\.0/)).toBeInTheDocument();
    // The weights beside the categories are our weights' shares, and the columns say whose
    // (why it moved; the categories' table, drawn for print in jsdom too): 3 of 4 is 75 %.
    expect(screen.getAllByRole('columnheader', { name: 'Our weight' })).toHaveLength(2);
    expect(screen.getByRole('columnheader', { name: 'Provider’s weight' })).toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Weight' })).toBeNull();
    const security = screen
      .getAllByRole('rowheader', { name: 'Security' })
      .map((header) => header.closest('tr')!.textContent);
    expect(security.filter((row) => /20 %75 %$/.test(row ?? ''))).toHaveLength(1);
    // The headline change of our figure is our index's move, never the provider's +6.01.
    await within(deltas).findByText(
      /Up 2\.50 in risk score since the previous batch recorded here/,
    );
    expect(deltas.textContent).not.toMatch(/6\.01/);
  });

  it("the hotspot table's Δ risk is ours where recorded, the provider's marked where not", async () => {
    installFakeBff({
      ...shellRoutes(),
      ...storeRoutes(),
      '/api/status': { body: statusBody({ history: coverage() }) },
      '/api/countries': { body: countriesBody() },
      '/api/v1/hotspots': {
        body: hotspotsBody({
          hotspots: [
            hotspot({ iso: 'UKR', name: 'Ukraine', risk: 86.12, delta_headline: -0.66 }),
            hotspot({ iso: 'ZZZ', name: 'Newland', risk: 50, delta_headline: 0.8 }),
          ],
        }),
      },
      ...historyRoutes(),
      // What changed compared the batch shown with the one before: Ukraine +13.20.
      '/api/changes': { body: changesBody() },
    });
    renderApp('/');
    const table = await screen.findByRole('table', { name: /^Hotspots of/ });
    const row = (name: string) => within(table).getByRole('row', { name: new RegExp(name) });
    await within(table).findByText('+13.20');
    expect(row('Ukraine')).not.toHaveTextContent('−0.66');
    // Newland is not in the recorded comparison: the provider's figure, said to be its own.
    expect(row('Newland')).toHaveTextContent(/\*\(the provider.s own figure\) ▲ up \+0\.80/);
  });

  it("the map's tooltip says whose change it shows", () => {
    const row = { iso: 'UKR', name: 'Ukraine', risk: 86, tier: 'crit', delta_headline: -0.66 };
    expect(shapeTooltip('Ukraine', row, false, 6.01).textContent).toContain(
      'Change +6.01 since the previous batch recorded here',
    );
    expect(shapeTooltip('Ukraine', row, false, null).textContent).toContain(
      "Change −0.66 (provider's own figure, period not stated)",
    );
  });
});
