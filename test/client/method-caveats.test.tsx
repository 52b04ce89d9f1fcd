import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MethodMark } from '../../src/shared/method-api';
import {
  countriesBody,
  countryBody,
  hotspot,
  hotspotsBody,
  shellRoutes,
  statusBody,
} from './fixtures/data';
import {
  batchTimes,
  changesBody,
  countryHistoryBody,
  countryPoints,
  coverage,
  historyRoutes,
} from './fixtures/history';
import { storeRoutes } from './fixtures/sites';
import { installFakeBff } from './fake-bff';
import { renderApp } from './render-app';
import { LOADED } from './waits';

/*
 * Issue 31: a delta, a comparison or a backtest across a provider's method change (not marked
 * comparable) never subtracts silently: it says "method changed from A to B on <batch time>"
 * and, where sensible, counts within the new method only.
 */
const TIMES = batchTimes(4);
const change = (asOf: string, comparable = false): MethodMark => ({
  as_of: asOf,
  from: 'ggri 3.2',
  to: 'ggri-m 4.0',
  comparable,
});
const notes = () => screen.queryAllByRole('note').map((note) => note.textContent ?? '');

afterEach(() => {
  vi.unstubAllGlobals();
});

function compareBff(changes: MethodMark[]) {
  // Mali's risk: 70.0, 70.1, 70.2, 86.1; the method changed with the third batch.
  const body = (iso: string, name: string) => ({
    ...countryHistoryBody(iso, name, countryPoints(4)),
    method_changes: changes,
  });
  installFakeBff({
    ...shellRoutes(),
    '/api/status': { body: statusBody() },
    '/api/countries': { body: countriesBody() },
    ...historyRoutes(),
    '/api/history/country/MLI': { body: body('MLI', 'Mali') },
    '/api/history/country/NER': { body: body('NER', 'Niger') },
  });
}

describe('compare across a method change', () => {
  it('counts Δ risk within the new method only and names the change', async () => {
    compareBff([change(TIMES[2] ?? '')]);
    renderApp('/compare?iso=MLI,NER');
    const numbers = await screen.findByRole('region', { name: 'Key numbers table' });
    const mali = within(numbers).getByRole('row', { name: /Mali/ });
    // 86.1 − 70.2 (the first batch under the new method), not 86.1 − 70.0.
    expect(mali).toHaveTextContent('+15.9');
    expect(mali).toHaveTextContent('since 1 Jun 2025, 22:00 UTC');
    expect(within(numbers).getByRole('note')).toHaveTextContent(
      'Not comparable: The provider’s method changed from ggri 3.2 to ggri-m 4.0 on 1 Jun 2025, 22:00 UTC: scores are not comparable across it. Δ risk is counted within the new method only',
    );
    // The trend marks it too.
    await vi.waitFor(
      () => expect(notes()).toContainEqual(expect.stringMatching(/^Method changed on 1 Jun 2025/)),
      LOADED,
    );
  });

  it('subtracts over the whole history when an admin marked the change comparable', async () => {
    compareBff([change(TIMES[2] ?? '', true)]);
    renderApp('/compare?iso=MLI,NER');
    const numbers = await screen.findByRole('region', { name: 'Key numbers table' });
    expect(within(numbers).getByRole('row', { name: /Mali/ })).toHaveTextContent('+16.1');
    expect(within(numbers).queryByRole('note')).toBeNull();
  });
});

describe('the country page across a method change', () => {
  it('shows no recorded delta of ours in the header, says why, and the latest change names it', async () => {
    const points = countryPoints(4);
    installFakeBff({
      ...shellRoutes(),
      ...storeRoutes(),
      '/api/status': { body: statusBody({ history: coverage() }) },
      '/api/v1/country/UKR': { body: countryBody() },
      ...historyRoutes(),
      '/api/history/country/UKR': {
        body: {
          ...countryHistoryBody('UKR', 'Ukraine', points),
          method_changes: [change(TIMES[3] ?? '')],
        },
      },
      '/api/country/UKR/explain': {
        body: {
          ok: true,
          iso: 'UKR',
          from_batch: { as_of: TIMES[2], id: 'a1' },
          to_batch: { as_of: TIMES[3], id: 'b2' },
          delta_risk: 15.9,
          delta_static: 0,
          delta_active: 15.7,
          categories: [],
          events: [],
          breaking_events: 0,
          method_changes: [change(TIMES[3] ?? '')],
          sentence: 'The provider changed its method from ggri 3.2 to ggri-m 4.0: not comparable.',
        },
      },
    });
    renderApp('/country/UKR');
    const header = await screen.findByRole('region', { name: /Ukraine/ });
    await vi.waitFor(
      () =>
        expect(within(header).getByRole('note')).toHaveTextContent(
          'The provider’s method changed from ggri 3.2 to ggri-m 4.0 on 2 Jun 2025, 10:00 UTC: scores are not comparable across it.',
        ),
      LOADED,
    );
    expect(screen.getByTestId('country-deltas')).not.toHaveTextContent('+15.9');
    const trend = await screen.findByRole('region', { name: 'Trend' });
    expect(await within(trend).findByText(/^Latest change:/)).toBeInTheDocument();
    expect(within(trend).getByText(/Latest change:/).parentElement).toHaveTextContent(
      "Latest change: The provider's method changed from ggri 3.2 to ggri-m 4.0 on 2 Jun 2025, 10:00 UTC: not comparable. Active +15.7",
    );
  });
});

describe('the overview across a method change', () => {
  it("shows the provider's own figure, not our subtraction, and the movers say why", async () => {
    installFakeBff({
      ...shellRoutes(),
      ...storeRoutes(),
      '/api/status': { body: statusBody({ history: coverage() }) },
      '/api/countries': { body: countriesBody() },
      '/api/v1/hotspots': {
        body: hotspotsBody({
          hotspots: [hotspot({ iso: 'UKR', name: 'Ukraine', risk: 86.12, delta_headline: -0.66 })],
        }),
      },
      ...historyRoutes(),
      // Ukraine +13.20 in the comparison, across the change.
      '/api/changes': { body: changesBody({ method_changes: [change(TIMES[3] ?? '')] }) },
    });
    renderApp('/');
    const strip = await screen.findByRole('region', {
      name: 'Moved since the previous recorded batch',
    });
    expect(await within(strip).findByRole('note')).toHaveTextContent(
      'The provider’s method changed from ggri 3.2 to ggri-m 4.0 on 2 Jun 2025, 10:00 UTC: scores are not comparable across it. These moves are across it',
    );
    const table = await screen.findByRole('table', { name: /^Hotspots of/ });
    const row = within(table).getByRole('row', { name: /Ukraine/ });
    expect(row).toHaveTextContent(/\*\(the provider.s own figure\) ▼ down −0\.66/);
    expect(row).not.toHaveTextContent('+13.20');
  });
});
