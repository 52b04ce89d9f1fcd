import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { countriesBody, countryBody, hotspotsBody, shellRoutes, statusBody } from './fixtures/data';
import { batchesRoute, batchTimes, historyRoutes } from './fixtures/history';
import { storeRoutes, withHistory } from './fixtures/sites';
import { installFakeBff } from './fake-bff';
import { renderApp } from './render-app';

/*
 * Issue 33: the status line never shows a next check whose time has passed (point 10), and a
 * past batch's overview says it is one and offers no check for new batches (point 3).
 */
const PAST = batchTimes(60)[40]!;

function overview(status = statusBody(withHistory)) {
  const bff = installFakeBff({
    ...shellRoutes(),
    ...storeRoutes(),
    '/api/status': { body: status },
    '/api/countries': (url) => ({
      body: countriesBody(url.searchParams.has('as_of') ? { as_of: PAST } : {}),
    }),
    '/api/v1/hotspots': (url) => ({
      body: hotspotsBody(url.searchParams.has('as_of') ? { as_of: PAST } : {}),
    }),
    ...historyRoutes(),
    '/api/batches': batchesRoute(),
  });
  return bff;
}

describe('the status line and a past batch (issue 33)', () => {
  it('a next check whose time has passed is not shown as a time', async () => {
    const passed = new Date(Date.now() - 5 * 60_000).toISOString();
    overview(statusBody({ ...withHistory, next_check_at: passed }));
    renderApp('/');
    const button = await screen.findByRole('button', { name: 'Check now' });
    const line = button.closest('p');
    expect(line).toHaveTextContent(/· checking again now/);
    expect(line).not.toHaveTextContent(`next check ${passed.slice(11, 16)} UTC`);
  });

  it('a past batch says so, with no next check and no "Check now"', async () => {
    overview();
    renderApp(`/?as_of=${encodeURIComponent(PAST)}`);
    expect(await screen.findByText(/^Top 4 of the batch shown/)).toBeInTheDocument();
    expect(screen.queryByText(/of the latest run/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Check now' })).not.toBeInTheDocument();
    expect(screen.queryByText(/next check/)).not.toBeInTheDocument();
  });

  it('a past batch has no "Next batch due"; the latest has (point 3)', async () => {
    overview();
    const view = renderApp(`/?as_of=${encodeURIComponent(PAST)}`);
    await screen.findByText(/^Top 4 of the batch shown/);
    expect(screen.getByText('Data generated')).toBeInTheDocument();
    expect(screen.queryByText('Next batch due')).not.toBeInTheDocument();
    view.unmount();
    overview();
    renderApp('/');
    expect(await screen.findByText('Next batch due')).toBeInTheDocument();
  });

  it('a past batch opens from a date field, or "A week ago" (point 3)', async () => {
    const bff = overview();
    renderApp(`/?as_of=${encodeURIComponent(PAST)}`);
    const day = await screen.findByLabelText('Batch of a day (UTC)');
    await userEvent.clear(day);
    await userEvent.type(day, '2026-03-02');
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    await screen.findByText(/^Top 4 of the batch shown/);
    expect(bff.calls('/api/countries').map((url) => url.searchParams.get('as_of'))).toContain(
      '2026-03-02T23:59:59Z',
    );
    const asked = () =>
      new Set(bff.calls('/api/countries').map((url) => url.searchParams.get('as_of')));
    const before = asked().size;
    await userEvent.click(screen.getByRole('button', { name: 'A week ago' }));
    await waitFor(() => expect(asked().size).toBe(before + 1));
    expect(screen.getByRole('button', { name: 'A month ago' })).toBeInTheDocument();
  });

  it('the country page has its own as-of control: a day, or a week or a month ago (point 3)', async () => {
    const bff = installFakeBff({
      ...shellRoutes(),
      ...storeRoutes(),
      '/api/status': { body: statusBody(withHistory) },
      '/api/v1/country/UKR': (url) => ({
        body: url.searchParams.has('as_of') ? { ...countryBody(), as_of: PAST } : countryBody(),
      }),
      ...historyRoutes(),
      '/api/country/UKR/explain': { status: 400, body: { ok: false, error: 'no batch before' } },
      '/api/batches': batchesRoute(),
    });
    renderApp('/country/UKR');
    await userEvent.click(await screen.findByText('Open a past batch'));
    await userEvent.click(screen.getByRole('button', { name: 'A week ago' }));
    const asked = () => bff.calls('/api/v1/country/UKR').map((u) => u.searchParams.get('as_of'));
    await waitFor(() => expect(asked().filter(Boolean)).toHaveLength(1));
    // The past batch's bar keeps the same control on the country page, to go further back.
    const day = await screen.findByLabelText('Batch of a day (UTC)');
    await userEvent.clear(day);
    await userEvent.type(day, '2026-03-02');
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    await waitFor(() => expect(asked()).toContain('2026-03-02T23:59:59Z'));
    expect(await screen.findByRole('region', { name: 'Batch shown' })).toBeInTheDocument();
  });

  it("a past batch's hotspots are markers on the map, placed where the latest list puts them (point 3)", async () => {
    // The recorded rows carry no coordinates (the store keeps scores, not places).
    const recorded = hotspotsBody().hotspots.map((row) => ({ ...row, lat: null, lng: null }));
    const bff = installFakeBff({
      ...shellRoutes(),
      ...storeRoutes(),
      '/api/status': { body: statusBody(withHistory) },
      '/api/countries': (url) => ({
        body: countriesBody(url.searchParams.has('as_of') ? { as_of: PAST } : {}),
      }),
      '/api/v1/hotspots': (url) => ({
        body: url.searchParams.has('as_of')
          ? hotspotsBody({ as_of: PAST, hotspots: recorded })
          : hotspotsBody(),
      }),
      ...historyRoutes(),
      '/api/batches': batchesRoute(),
    });
    const { container } = renderApp(`/?as_of=${encodeURIComponent(PAST)}`);
    await screen.findByText(/^Top 4 of the batch shown/);
    await waitFor(() => expect(container.querySelectorAll('.hotspot-marker')).toHaveLength(4));
    // The list is the batch's: the latest hotspot list is never asked for.
    expect(bff.calls('/api/v1/hotspots').every((u) => u.searchParams.has('as_of'))).toBe(true);
  });
});
