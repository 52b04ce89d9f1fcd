import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import {
  AS_OF,
  countriesBody,
  countryBody,
  hotspotsBody,
  statusBody,
  shellRoutes,
} from './fixtures/data';
import { applyLanguage, loadLanguage } from '../../src/client/lib/i18n';
import { historyRoutes } from './fixtures/history';
import { installFakeBff } from './fake-bff';
import { renderApp } from './render-app';

function overviewBff() {
  return installFakeBff({
    ...shellRoutes(),
    ...historyRoutes(),
    '/api/status': { body: statusBody() },
    '/api/countries': { body: countriesBody() },
    '/api/v1/hotspots': { body: hotspotsBody() },
  });
}

describe('stale data, failures and new batches', () => {
  it('marks data the BFF served past freshness as stale, with the reason and since when', async () => {
    const bff = overviewBff();
    bff.set('/api/v1/country/UKR', {
      body: countryBody({}, { stale: true, stale_reason: 'upstream answered 503' }),
      headers: { 'X-Cache': 'STALE', Age: '7200' },
    });
    renderApp('/country/UKR');
    // The data's own time leads (old data must not read as fresh), then when it was fetched.
    const note = await screen.findByText(/^Stale: data from/);
    expect(note.closest('p')).toHaveTextContent(
      /^Stale: data from 2 Jun 2025, 10:00 UTC \(\d+ d ago\)\. The data service could not be refreshed \(upstream answered 503\); last fetched \d+ \w+ \d{4}, \d\d:\d\d UTC \(2 h ago\)\. Showing the last good data\.$/,
    );
    // The data itself stays on screen.
    expect(screen.getByTestId('country-risk')).toHaveTextContent('86.12');
  });

  it("says why in plain words, never the BFF's own terms (issue 19, point 14)", async () => {
    const bff = overviewBff();
    bff.set('/api/v1/country/UKR', {
      body: countryBody(
        {},
        {
          stale: true,
          stale_reason:
            "refresh held back: this hour's last requests are kept for the request reserve",
        },
      ),
      headers: { 'X-Cache': 'STALE', Age: '7200' },
    });
    renderApp('/country/UKR');
    const note = (await screen.findByText(/^Stale: data from/)).closest('p')!;
    expect(note).toHaveTextContent(
      "(automatic refreshes are paused to keep this hour's last requests for pages people open)",
    );
    expect(note.textContent).not.toMatch(/reserve|held back|budget|upstream/i);
  });

  it('does not show a stale note for fresh data', async () => {
    const bff = overviewBff();
    bff.set('/api/v1/country/UKR', {
      body: countryBody(),
      headers: { 'X-Cache': 'HIT', Age: '20' },
    });
    renderApp('/country/UKR');
    await screen.findByTestId('country-risk');
    expect(screen.queryByText(/^Stale/)).toBeNull();
  });

  it('a failed background refresh keeps the data, marks it stale and toasts once', async () => {
    const bff = overviewBff();
    const { queryClient } = renderApp('/');
    await screen.findByRole('table');
    bff.set('/api/v1/hotspots', {
      status: 503,
      body: { ok: false, error: 'The data service is unavailable and nothing is cached' },
    });
    await act(() => queryClient.refetchQueries({ queryKey: ['hotspots'] }));
    const toast = await screen.findByText(/Could not refresh the hotspot list/);
    expect(toast).toHaveTextContent('The data on screen is kept and marked stale.');
    expect(within(screen.getByRole('table')).getByRole('link', { name: 'Ukraine' })).toBeVisible();
    expect(screen.getByText(/^Stale: data from/).closest('p')).toHaveTextContent(
      'The last refresh failed (The data service is unavailable and nothing is cached); last fetched',
    );
    // 503 is retried (twice), then reported; one toast, not three.
    expect(bff.calls('/api/v1/hotspots')).toHaveLength(4);
    expect(screen.getAllByText(/Could not refresh the hotspot list/)).toHaveLength(1);
  });

  it('names what failed to refresh in the page language', async () => {
    const bff = overviewBff();
    await loadLanguage('fr');
    try {
      const { queryClient } = renderApp('/?lang=fr');
      await screen.findByRole('table');
      bff.set('/api/v1/hotspots', { status: 400, body: { ok: false, error: 'non' } });
      await act(() => queryClient.refetchQueries({ queryKey: ['hotspots'] }));
      expect(
        await screen.findByText(/Impossible d’actualiser la liste des points chauds/),
      ).toBeVisible();
    } finally {
      applyLanguage('en', document.documentElement);
    }
  });

  it('a first load that fails shows the error in its panel (no toast) and is not retried on 4xx', async () => {
    const bff = overviewBff();
    bff.set('/api/v1/hotspots', {
      status: 400,
      body: { ok: false, error: 'limit must be 1 to 50' },
    });
    renderApp('/');
    const alert = await screen.findByText(/The hotspot list could not be loaded\./);
    expect(alert.closest('[role=alert]')).toHaveTextContent('limit must be 1 to 50');
    expect(bff.calls('/api/v1/hotspots')).toHaveLength(1);
    expect(screen.queryByText(/Could not refresh/)).toBeNull();
  });

  it('a hotspot list that failed is not asked again when the table is drawn seconds later', async () => {
    const bff = overviewBff();
    bff.set('/api/v1/hotspots', {
      status: 400,
      body: { ok: false, error: 'limit must be 1 to 50' },
    });
    // The table comes after the history panels' chunks: on a loaded machine, seconds after the
    // list failed. Time moves 6 s on once the failure is recorded, as it did there.
    const realNow = Date.now.bind(Date);
    let later = 0;
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => realNow() + later);
    try {
      const { queryClient } = renderApp('/');
      queryClient.getQueryCache().subscribe((event) => {
        if (event.query.queryKey.includes('hotspots') && event.query.state.status === 'error') {
          later = 6_000;
        }
      });
      const table = await screen.findByRole('region', { name: 'Hotspots' });
      expect(await within(table).findByText(/The hotspot list could not be loaded\./)).toBeTruthy();
      expect(bff.calls('/api/v1/hotspots')).toHaveLength(1);
    } finally {
      clock.mockRestore();
    }
  });

  it('a quota answer (429) says when to try again', async () => {
    const bff = overviewBff();
    bff.set('/api/v1/country/SDN', {
      status: 429,
      body: { ok: false, error: 'The hourly request quota is used up', retry_after_seconds: 600 },
      headers: { 'Retry-After': '600' },
    });
    renderApp('/country/SDN');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The data of Sudan could not be loaded.');
    expect(alert).toHaveTextContent('The hourly request quota is used up.');
    expect(alert).toHaveTextContent(/Try again at \d\d:\d\d UTC \(in 10 min\)\./);
    expect(bff.calls('/api/v1/country/SDN')).toHaveLength(1);
  });

  it('a malformed answer is an error state, not a crash', async () => {
    const bff = overviewBff();
    bff.set('/api/v1/country/UKR', { body: { ok: true, country: 'not an object' } });
    renderApp('/country/UKR');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The dashboard server sent data in an unexpected shape',
    );
  });

  it('refreshes the data when /api/status reports a new as_of', async () => {
    const bff = overviewBff();
    const { queryClient } = renderApp('/');
    await screen.findByRole('table');
    await waitFor(() => expect(bff.calls('/api/status').length).toBeGreaterThan(0));
    expect(bff.calls('/api/countries')).toHaveLength(1);

    const next = '2025-06-03T03:00:00.000Z';
    bff.set('/api/status', { body: statusBody({ as_of: next }) });
    bff.set('/api/countries', { body: countriesBody({ as_of: next }) });
    await act(() => queryClient.refetchQueries({ queryKey: ['status'] }));
    await waitFor(() => expect(bff.calls('/api/countries')).toHaveLength(2));
    expect(bff.calls('/api/v1/hotspots').length).toBeGreaterThanOrEqual(2);
  });

  it('a status poll with the same as_of refetches nothing else', async () => {
    const bff = overviewBff();
    const { queryClient } = renderApp('/');
    await screen.findByRole('table');
    await waitFor(() => expect(bff.calls('/api/status').length).toBeGreaterThan(0));
    await act(() => queryClient.refetchQueries({ queryKey: ['status'] }));
    await act(() => queryClient.refetchQueries({ queryKey: ['status'] }));
    expect(bff.calls('/api/countries')).toHaveLength(1);
    expect(bff.calls('/api/v1/hotspots')).toHaveLength(1);
  });

  it('says plainly when the upstream rejected the key or the quota is blocked', async () => {
    const bff = overviewBff();
    bff.set('/api/status', {
      body: statusBody({
        upstream: {
          health: 'down',
          last_error: {
            class: 'key_rejected',
            message: 'Invalid API key',
            at: AS_OF,
            status: 401,
          },
          message: 'The data service rejected the API key (401). Ask the operator to check it.',
        },
        quota: {
          limit: 50,
          remaining: 0,
          used_last_60min: 50,
          reserve: 10,
          blocked_until: new Date(Date.now() + 15 * 60_000).toISOString(),
        },
      }),
    });
    renderApp('/');
    expect(
      await screen.findByText(/The data service rejected the API key \(401\)/),
    ).toBeInTheDocument();
    expect(
      screen.getByText(/quota of the data service is used up until .* \(in 15 min\)/),
    ).toBeVisible();
  });
});
