import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ExplainResponse } from '../../src/shared/explain-api';
import { countryBody, statusBody, shellRoutes } from './fixtures/data';
import {
  changesBody,
  countryHistoryBody,
  countryPoints,
  coverage,
  historyRoutes,
  batchesRoute,
} from './fixtures/history';
import { overviewRoutes } from './fixtures/overview';
import { storeRoutes } from './fixtures/sites';
import { installFakeBff } from './fake-bff';
import { renderApp } from './render-app';

const FROM = '2025-06-01T22:00:00.000Z';
const TO = '2025-06-02T10:00:00.000Z';

/** The server's answer for a crafted move of Ukraine (explain.ts writes the sentence). */
function explainBody(from = FROM, to = TO): ExplainResponse {
  return {
    ok: true,
    iso: 'UKR',
    from_batch: { as_of: from, id: 'a1' },
    to_batch: { as_of: to, id: 'b2' },
    delta_risk: 6,
    delta_static: 0,
    delta_active: 6,
    categories: [
      {
        category: 'security',
        delta_score: 14,
        weight: 0.2,
        delta_static: 0,
        delta_active: 14,
      },
      {
        category: 'civil_unrest',
        delta_score: 9,
        weight: 0.1,
        delta_static: 1,
        delta_active: 8,
      },
      { category: 'health', delta_score: 0, weight: 0.05, delta_static: 0, delta_active: 0 },
    ],
    events: [
      {
        ts: '2025-06-02T08:00:00.000Z',
        headline: 'Strikes on the grid',
        source: 'Wire',
        breaking: true,
      },
      {
        ts: '2025-06-02T05:00:00.000Z',
        headline: 'Protest in Kyiv',
        source: null,
        breaking: false,
      },
    ],
    breaking_events: 1,
    confidence: 19,
    source_count: 0,
    sentence:
      'Risk +6.0: security +14.0 (weight 20 %), civil unrest +9.0 (weight 10 %); 1 breaking event since',
  };
}

afterEach(() => vi.restoreAllMocks());

/**
 * Opens "Why it moved" where it now is (issue 33, point 4): a disclosure in the country's header,
 * right under the change it explains, not a panel screens below it.
 */
async function openWhy(): Promise<HTMLElement> {
  const header = await screen.findByRole('region', { name: /^Ukraine/ });
  const summary = await within(header).findByText('Why it moved', { selector: 'summary' });
  // The change's room is kept empty while it is asked for (issue 32): wait for the change itself.
  const deltas = await within(header).findByTestId('country-deltas');
  expect(deltas.nextElementSibling).toContainElement(summary);
  await userEvent.click(summary);
  return within(header).findByRole('region', { name: 'Why it moved' });
}

// Whole-app renders with lazy chunks: the limit is no assertion of speed (see history-country).
describe('why it moved', () => {
  it('the country page explains the move into the batch shown, following ?as_of=', async () => {
    const bff = installFakeBff({
      ...shellRoutes(),
      ...storeRoutes(),
      '/api/status': { body: statusBody({ history: coverage() }) },
      '/api/v1/country/UKR': { body: countryBody() },
      ...historyRoutes(),
      '/api/country/UKR/explain': { body: explainBody() },
      // The batch shown (?as_of=) is looked up among the recorded ones.
      '/api/batches': batchesRoute(),
    });
    renderApp(`/country/UKR?as_of=${encodeURIComponent(TO)}`);
    const panel = await openWhy();
    expect(await within(panel).findByText(/^Risk \+6\.0/)).toHaveTextContent(
      'Risk +6.0: security +14.0 (weight 20 %), civil unrest +9.0 (weight 10 %); 1 breaking event since',
    );
    const rows = within(within(panel).getByRole('table')).getAllByRole('row');
    // The heading row and the two categories that moved; health did not move.
    expect(rows.map((r) => r.textContent)).toEqual([
      'CategoryChangeWeightStaticActive',
      'Security+14.020 %0.0+14.0',
      'Civil unrest+9.010 %+1.0+8.0',
    ]);
    const events = within(panel).getAllByRole('listitem');
    expect(events[0]).toHaveTextContent(
      '2 Jun 2025, 08:00 UTC Breaking Strikes on the grid (Wire)',
    );
    expect(events[1]).toHaveTextContent('Protest in Kyiv');
    expect(within(panel).getByText(/2 events between the two batches, 1 breaking/)).toBeVisible();
    // What the figure rests on, said plainly.
    expect(within(panel).getByText(/^Confidence 19 of 100/)).toHaveTextContent(
      'Confidence 19 of 100 and no sources: a weak basis, read this move with care.',
    );
    // The batch shown is the newer one; the older is left to the server (the batch before it).
    const asked = bff.calls('/api/country/UKR/explain');
    expect(asked.map((u) => u.search)).toEqual([`?to=${encodeURIComponent(TO)}`]);
  });

  it('a country with no earlier batch says there is nothing to compare, not an error', async () => {
    installFakeBff({
      ...shellRoutes(),
      ...storeRoutes(),
      '/api/status': { body: statusBody({ history: coverage() }) },
      '/api/v1/country/UKR': { body: countryBody() },
      ...historyRoutes(),
      '/api/country/UKR/explain': {
        status: 400,
        body: { ok: false, error: 'there is no recorded batch before the one compared' },
      },
    });
    renderApp('/country/UKR');
    const panel = await openWhy();
    expect(
      await within(panel).findByText(/Nothing to compare yet: Ukraine is not in a recorded batch/),
    ).toBeVisible();
    expect(within(panel).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('a country recorded in one batch only is not asked about: nothing to compare, no error', async () => {
    const bff = installFakeBff({
      ...shellRoutes(),
      ...storeRoutes(),
      '/api/status': { body: statusBody({ history: coverage() }) },
      '/api/v1/country/UKR': { body: countryBody() },
      ...historyRoutes(),
      '/api/history/country/UKR': {
        body: countryHistoryBody('UKR', 'Ukraine', countryPoints(1), coverage({ batches: 1 })),
      },
      '/api/country/UKR/explain': { body: explainBody() },
    });
    renderApp('/country/UKR');
    const panel = await openWhy();
    expect(await within(panel).findByText(/Nothing to compare yet: Ukraine/)).toBeVisible();
    expect(bff.calls('/api/country/UKR/explain')).toHaveLength(0);
  });

  it('What changed explains a country when asked, between exactly the two batches compared', async () => {
    const changes = changesBody();
    const from = changes.from_batch?.as_of ?? '';
    const to = changes.to_batch?.as_of ?? '';
    const bff = installFakeBff({
      ...overviewRoutes(),
      '/api/country/UKR/explain': { body: explainBody(from, to) },
    });
    renderApp('/');
    const panel = await screen.findByRole('region', { name: 'What changed' });
    const risers = (await within(panel).findByRole('heading', { name: 'Risk rose most' }))
      .parentElement as HTMLElement;
    // Nothing is asked until a reader opens one.
    expect(bff.calls('/api/country/UKR/explain')).toHaveLength(0);
    const why = within(risers).getByRole('button', { name: 'Why Ukraine moved?' });
    expect(why).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(why);
    expect(why).toHaveAttribute('aria-expanded', 'true');
    expect(await within(risers).findByText(/^Risk \+6\.0/)).toHaveTextContent(
      '; 1 breaking event since',
    );
    expect(within(risers).getByText(/^Confidence 19 of 100 and no sources/)).toBeVisible();
    const asked = bff.calls('/api/country/UKR/explain')[0];
    expect(asked?.searchParams.get('from')).toBe(from);
    expect(asked?.searchParams.get('to')).toBe(to);
    await userEvent.click(why);
    expect(within(risers).queryByText(/^Risk \+6\.0/)).not.toBeInTheDocument();
  });
});
