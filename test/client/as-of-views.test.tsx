import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { countriesBody, hotspot, hotspotsBody, statusBody, shellRoutes } from './fixtures/data';
import { batchTimes, countryHistoryBody, countryPoints, historyRoutes } from './fixtures/history';
import { exposureBody, sitesBody, withHistory } from './fixtures/sites';
import { LOADED } from './waits';
import { installFakeBff, type Route } from './fake-bff';
import { renderApp } from './render-app';
import { catchSavedBlobs } from './saved-files';

/*
 * Issue 22: All countries, exposure and compare as of a past recorded batch (`?as_of=`): each
 * asks the BFF for that batch (or cuts its history there), shows its numbers, not the latest's,
 * and the banner names the batch.
 */
const PAST = batchTimes(4)[1]!;
const ENCODED = encodeURIComponent(PAST);

/** `/api/batches?before=…&limit=1`, as the banner asks for the batch a time falls in. */
const batchesRoute: Route = () => ({
  body: {
    ok: true,
    batches: [{ id: 'c0ffee'.repeat(10) + 'abcd', as_of: PAST }],
    next_before: null,
  },
});

const bannerText = async () =>
  (await screen.findByRole('region', { name: 'Batch shown' })).textContent ?? '';

// Whole-app renders with lazy chunks on shared cores: the time limit is no assertion of speed.
describe('as of a past batch', () => {
  it('All countries lists the rows of that batch, says so, and its download is of them', async () => {
    const then = countriesBody({
      as_of: PAST,
      countries: [hotspot({ iso: 'FRA', name: 'France', risk: 55.5, tier: 'high' })],
    });
    const bff = installFakeBff({
      ...shellRoutes(),
      '/api/status': { body: statusBody(withHistory) },
      '/api/countries': { body: countriesBody() },
      [`/api/countries?as_of=${ENCODED}`]: { body: then },
      '/api/v1/hotspots': { body: hotspotsBody() },
      [`/api/v1/hotspots?limit=50&as_of=${ENCODED}`]: { body: hotspotsBody({ as_of: PAST }) },
      '/api/batches': batchesRoute,
      ...historyRoutes(),
    });
    const blobs = catchSavedBlobs();
    renderApp(`/?table=all&as_of=${ENCODED}`);
    const panel = await screen.findByRole('region', { name: 'All countries' });
    const table = await within(panel).findByRole('table');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toHaveTextContent('France');
    expect(rows[0]).toHaveTextContent('55.50');
    expect(screen.getByText(/^1 of 1 countries in the batch shown/)).toBeInTheDocument();
    // The batch's rows are asked with as_of; the latest list only for where to put the past
    // batch's markers (issue 33, point 3: the store keeps no coordinates).
    expect(bff.calls('/api/countries').map((u) => u.search)).toContain(`?as_of=${ENCODED}`);
    expect(
      bff.calls('/api/countries').filter((u) => u.search !== `?as_of=${ENCODED}`).length,
    ).toBeLessThanOrEqual(1);
    expect(await bannerText()).toContain('Viewing the 1 Jun 2025, 10:00 UTC batch');

    await userEvent.click(screen.getByRole('button', { name: 'JSON' }));
    await vi.waitFor(() => expect(blobs).toHaveLength(1), LOADED);
    const body = JSON.parse(await blobs[0]!.text()) as { as_of: string; rows: unknown[] };
    expect(body.as_of).toBe(PAST);
    expect(body.rows).toEqual([expect.objectContaining({ iso: 'FRA', risk: 55.5 })]);
  });

  it('/exposure asks for that batch, shows its numbers and the banner', async () => {
    const bff = installFakeBff({
      ...shellRoutes(),
      ...historyRoutes(),
      '/api/status': { body: statusBody(withHistory) },
      '/api/exposure': { body: exposureBody() },
      [`/api/exposure?weight=people&as_of=${ENCODED}`]: {
        body: exposureBody({
          as_of: PAST,
          by_tier: [{ tier: 'mod', sites: 3, people: 75, value: 0 }],
        }),
      },
      '/api/sites': { body: sitesBody() },
      '/api/batches': batchesRoute,
      // The new-site form (an editor here) picks countries by today's numbers: a site is made now.
      '/api/countries': { body: countriesBody() },
      '/api/sites/alert-delivery': { status: 404, body: { ok: false, error: 'not in this test' } },
    });
    renderApp(`/exposure?as_of=${ENCODED}`);
    const tiers = await screen.findByRole('region', { name: 'Sites and people by tier' });
    expect(bff.calls('/api/exposure').map((u) => u.search)).toEqual([
      `?weight=people&as_of=${ENCODED}`,
    ]);
    expect(
      within(tiers)
        .getAllByRole('rowheader')
        .map((c) => c.textContent),
    ).toEqual(['Moderate']);
    expect(screen.getByText(/Country numbers of the batch of 1 Jun 2025, 10:00 UTC/)).toBeVisible();
    expect(await bannerText()).toContain('Viewing the 1 Jun 2025, 10:00 UTC batch');
  });

  it('the exposure brief of that batch asks for it too', async () => {
    const bff = installFakeBff({
      ...shellRoutes(),
      ...historyRoutes(),
      '/api/status': { body: statusBody(withHistory) },
      '/api/exposure': { body: exposureBody({ as_of: PAST }) },
      '/api/sites': { body: sitesBody() },
      '/api/batches': batchesRoute,
    });
    renderApp(`/exposure/brief?as_of=${ENCODED}`);
    expect(await screen.findByText(/^Data of the batch of 1 Jun 2025, 10:00 UTC/)).toBeVisible();
    expect(bff.calls('/api/exposure').map((u) => u.search)).toEqual([
      `?weight=people&as_of=${ENCODED}`,
    ]);
  });

  it('compare shows the numbers and the trend up to that batch', async () => {
    const points = countryPoints(4);
    installFakeBff({
      ...shellRoutes(),
      '/api/status': { body: statusBody(withHistory) },
      '/api/countries': { body: countriesBody() },
      ...historyRoutes(),
      '/api/history/country/MLI': { body: countryHistoryBody('MLI', 'Mali', points) },
      '/api/history/country/NER': {
        body: countryHistoryBody(
          'NER',
          'Niger',
          points.map((p) => ({ ...p, risk: (p.risk ?? 0) - 10 })),
        ),
      },
      '/api/batches': batchesRoute,
    });
    renderApp(`/compare?iso=MLI,NER&as_of=${ENCODED}&view=table`);
    const numbers = await screen.findByRole('region', { name: 'Key numbers' });
    const rows = within(numbers).getAllByRole('row').slice(1);
    // The second of four batches: 70.1 then (86.1 in the newest).
    expect(rows[0]).toHaveTextContent('70.10');
    expect(rows[0]).not.toHaveTextContent('86.10');
    expect(rows[1]).toHaveTextContent('60.10');
    const categories = screen.getByRole('region', { name: 'Categories side by side' });
    expect(within(categories).getByRole('row', { name: /Security/ })).toHaveTextContent(
      'Security80.080.0',
    );
    const trend = within(await screen.findByRole('region', { name: 'Risk over time table' }));
    expect(trend.getAllByRole('row')).toHaveLength(1 + 2);
    expect(await bannerText()).toContain('Viewing the 1 Jun 2025, 10:00 UTC batch');
  });

  it('a watchlist shows its countries as they stood in that batch, trends up to it, and shares it', async () => {
    const list = {
      id: 'w1',
      name: 'East',
      countries: ['UKR'],
      rules: [{ kind: 'breaking_event' }],
      scope: 'team',
      owner: null,
      webhook: null,
      email: null,
      version: 1,
      created_at: '2025-01-01T00:00:00.000Z',
      updated_at: '2025-01-01T00:00:00.000Z',
      unread_alerts: 0,
    };
    const bff = installFakeBff({
      ...shellRoutes(),
      '/api/status': { body: statusBody(withHistory) },
      '/api/watchlists/w1': { body: { ok: true, watchlist: list } },
      '/api/countries': { body: countriesBody() },
      [`/api/countries?as_of=${ENCODED}`]: {
        body: countriesBody({
          as_of: PAST,
          countries: [hotspot({ iso: 'UKR', name: 'Ukraine', risk: 61.25, tier: 'high' })],
        }),
      },
      ...historyRoutes(),
      '/api/history/country/UKR': { body: countryHistoryBody('UKR', 'Ukraine', countryPoints(4)) },
      '/api/alerts': { body: { ok: true, alerts: [], unread: 0, next_before: null } },
      '/api/watchlists/w1/deliveries': { body: { ok: true, deliveries: [] } },
      '/api/batches': batchesRoute,
    });
    renderApp(`/watchlists/w1?as_of=${ENCODED}`);
    const table = await screen.findByRole('region', { name: 'Countries of the watchlist' });
    const row = await within(table).findByRole('row', { name: /Ukraine/ });
    await vi.waitFor(() => expect(row).toHaveTextContent('61.25'), LOADED);
    // Only the batch's numbers were asked for (from the store), never the latest's.
    // The batch's rows are asked with as_of; the latest list only for where to put the past
    // batch's markers (issue 33, point 3: the store keeps no coordinates).
    expect(bff.calls('/api/countries').map((u) => u.search)).toContain(`?as_of=${ENCODED}`);
    expect(
      bff.calls('/api/countries').filter((u) => u.search !== `?as_of=${ENCODED}`).length,
    ).toBeLessThanOrEqual(1);
    // The trend stops at that batch: the second of four, not the newest.
    expect(
      await within(row).findByRole('img', {
        name: 'Risk trend of UKR, 2 batches to 1 Jun 2025, 10:00 UTC',
      }),
    ).toBeInTheDocument();
    expect(screen.getByText(/Numbers of the batch of 1 Jun 2025, 10:00 UTC/)).toBeVisible();
    expect(await bannerText()).toContain('Viewing the 1 Jun 2025, 10:00 UTC batch');
    expect(
      within(screen.getByRole('region', { name: 'Batch shown' }))
        .getByRole('link', { name: 'Back to the latest' })
        .getAttribute('href'),
    ).toBe('/watchlists/w1');

    await userEvent.setup().click(screen.getByRole('button', { name: 'Share link' }));
    expect(await screen.findByText('Link copied to the clipboard.')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(
      `${window.location.origin}/watchlists/w1?as_of=${ENCODED}`,
    );
  });
});
