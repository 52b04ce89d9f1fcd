import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { worldMapQuery } from '../../src/client/app/load-world-map';
import { createMemoryRouter } from 'react-router';
import { FIRST_RENDER_WAIT_MS, routeLoaded, startPage } from '../../src/client/app/start-page';
import { changesQueries } from '../../src/client/features/changes/api/changes-queries';
import { countryQueries } from '../../src/client/features/country/api/country-queries';
import { hotspotQueries } from '../../src/client/features/hotspots/api/hotspot-queries';
import { shapeQueries } from '../../src/client/features/map/api/shape-queries';
import { countrySummaryQueries } from '../../src/client/features/overview/api/country-summary-queries';
import { statusQueries } from '../../src/client/features/status/api/status-queries';
import { meQueries } from '../../src/client/lib/me-queries';
import { createQueryClient, RECENT_ERROR_MS } from '../../src/client/lib/query-client';
import { pageDataPaths } from '../../src/shared/page-data';
import { countriesBody, countryBody, hotspotsBody, statusBody } from './fixtures/data';
import {
  changesBody,
  countryHistoryBody,
  countryPoints,
  coverage,
  explainBody,
} from './fixtures/history';
import { installFakeBff } from './fake-bff';

const location = (href: string) => {
  const url = new URL(href, 'http://dashboard.test');
  return { pathname: url.pathname, search: url.search };
};

/** Nobody signs in here (a dashboard without access control). */
const OPEN_ME = {
  body: { ok: true, name: 'Anyone', email: null, role: 'admin', via: 'open', sign_out: null },
};

const requested = (requests: URL[]) => requests.map((url) => `${url.pathname}${url.search}`);

afterEach(() => {
  vi.useRealTimers();
});

describe('the start of the page (first render)', () => {
  it("has the overview's data, map chunk and shapes in the cache when it resolves, asked for at the preloaded URLs", async () => {
    const bff = installFakeBff({
      '/api/status': { body: statusBody() },
      '/api/me': OPEN_ME,
      '/api/countries': { body: countriesBody() },
      '/api/v1/hotspots': { body: hotspotsBody() },
    });
    const queryClient = createQueryClient();
    const at = location('/?tier=HIGH,crit&limit=30&sort=name');
    // A long wait: module loading under the test runner is slower than the real one.
    await startPage(queryClient, at, 60_000);

    expect(queryClient.getQueryData(statusQueries.current().queryKey)).toBeDefined();
    expect(queryClient.getQueryData(countrySummaryQueries.list().queryKey)).toBeDefined();
    const filters = { tiers: ['crit', 'high'], limit: 30 };
    expect(queryClient.getQueryData(hotspotQueries.list(filters).queryKey)).toBeDefined();
    const { WorldMap } = await import('../../src/client/features/map/components/world-map');
    expect(queryClient.getQueryData(worldMapQuery().queryKey)).toBe(WorldMap);
    const shapes = queryClient.getQueryData(shapeQueries.world().queryKey);
    expect(shapes?.features.length ?? 0).toBeGreaterThan(150);
    // Exactly the requests the BFF announced as preload hints for this URL, each once.
    const hints = pageDataPaths(at.pathname, new URLSearchParams(at.search));
    expect(requested(bff.requests).sort()).toEqual([...hints].sort());
  });

  it('renders anyway after the wait when an answer is slow, leaving it to arrive', async () => {
    vi.useFakeTimers();
    const never = new Promise<Response>(() => undefined);
    vi.stubGlobal(
      'fetch',
      vi.fn(() => never),
    );
    const started = startPage(new QueryClient(), location('/country/UKR'));
    let done = false;
    void started.then(() => (done = true));
    await vi.advanceTimersByTimeAsync(FIRST_RENDER_WAIT_MS - 1);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
  });

  it("starts the country page's chunk and data; a lower-case code gets the chunk and the status; other pages the status", async () => {
    const bff = installFakeBff({
      '/api/status': { body: statusBody() },
      '/api/me': OPEN_ME,
      '/api/v1/country/UKR': { body: countryBody({ iso: 'UKR', name: 'Ukraine' }) },
    });
    const queryClient = createQueryClient();
    await startPage(queryClient, location('/country/UKR'), 60_000);
    expect(queryClient.getQueryData(countryQueries.detail('UKR').queryKey)).toBeDefined();
    expect(requested(bff.requests).sort()).toEqual(
      [...pageDataPaths('/country/UKR', new URLSearchParams())].sort(),
    );

    const other = createQueryClient();
    for (const path of ['/country/ukr', '/compare', '/watchlists', '/nowhere']) {
      await startPage(other, location(path), 60_000);
    }
    // The status and who is signed in alone (asked once each): they draw the banner, the header
    // links and the user menu above every page.
    expect(
      other
        .getQueryCache()
        .getAll()
        .map((query) => query.queryKey),
    ).toEqual([statusQueries.current().queryKey, meQueries.current().queryKey]);
    expect(bff.requests).toHaveLength(5);
  });

  it("asks for a country's recorded change as it starts, when the BFF keeps history: its batches, then why it moved", async () => {
    const explained = explainBody();
    const bff = installFakeBff({
      '/api/status': { body: statusBody({ history: coverage() }) },
      '/api/me': OPEN_ME,
      '/api/v1/country/UKR': { body: countryBody({ iso: 'UKR', name: 'Ukraine' }) },
      '/api/history/country/UKR': { body: countryHistoryBody() },
      '/api/country/UKR/explain': { body: explained },
      '/api/history/country/NER': { body: countryHistoryBody('NER', 'Niger', countryPoints(1)) },
      '/api/v1/country/NER': { body: countryBody({ iso: 'NER', name: 'Niger' }) },
    });
    const queryClient = createQueryClient();
    await startPage(queryClient, location('/country/UKR?index=team'), 60_000);
    // The header's change is in the cache under the key the page reads (team view included).
    const why = countryQueries.explain('UKR', null, null, 'team');
    expect(queryClient.getQueryData(why.queryKey)?.data).toEqual(explained);
    expect(requested(bff.requests).slice(-2)).toEqual([
      '/api/history/country/UKR',
      '/api/country/UKR/explain?index=team',
    ]);

    // One recorded batch: nothing to explain, so nothing is asked (no 400 on the page).
    const alone = createQueryClient();
    await startPage(alone, location('/country/NER'), 60_000);
    expect(bff.calls('/api/history/country/NER')).toHaveLength(1);
    expect(bff.calls('/api/country/NER/explain')).toHaveLength(0);
  });

  it("asks for the overview's movers strip as it starts, when the BFF keeps history", async () => {
    const moves = changesBody();
    const bff = installFakeBff({
      '/api/status': { body: statusBody({ history: coverage() }) },
      '/api/me': OPEN_ME,
      '/api/countries': { body: countriesBody() },
      '/api/v1/hotspots': { body: hotspotsBody() },
      '/api/changes': { body: moves },
    });
    const queryClient = createQueryClient();
    await startPage(queryClient, location('/?index=team'), 60_000);
    // In the cache under the key the strip reads (the team view included), asked once.
    const strip = changesQueries.since('previous', null, 'team');
    expect(queryClient.getQueryData(strip.queryKey)?.data).toEqual(moves);
    expect(bff.calls('/api/changes')).toHaveLength(1);
  });

  it('keeps a failure as the error the page shows on mount, without asking again', async () => {
    const bff = installFakeBff({
      '/api/status': { body: statusBody() },
      '/api/me': OPEN_ME,
      '/api/v1/country/XKX': {
        status: 503,
        body: { ok: false, error: 'The data service is down', retry_after_seconds: 60 },
      },
    });
    const queryClient = createQueryClient();
    await expect(startPage(queryClient, location('/country/XKX'))).resolves.toBeUndefined();
    const detail = countryQueries.detail('XKX');
    expect(queryClient.getQueryState(detail.queryKey)?.status).toBe('error');

    // The page mounts on it: the error is shown, not fetched a second time.
    const observer = new QueryObserver(queryClient, detail);
    const unsubscribe = observer.subscribe(() => undefined);
    expect(observer.getCurrentResult().error?.message).toBe('The data service is down');
    expect(observer.getCurrentResult().isFetching).toBe(false);
    unsubscribe();
    expect(bff.calls('/api/v1/country/XKX')).toHaveLength(1);

    // An error that is no longer fresh is asked again when a page mounts on it.
    vi.useFakeTimers({ now: Date.now() + RECENT_ERROR_MS, toFake: ['Date'] });
    const later = new QueryObserver(queryClient, detail);
    const stop = later.subscribe(() => undefined);
    expect(later.getCurrentResult().isFetching).toBe(true);
    stop();
    expect(bff.calls('/api/v1/country/XKX')).toHaveLength(2);
  });
});

describe("the page's lazy route", () => {
  it('is waited for: the router draws nothing until it is loaded', async () => {
    let load: (module: { Component: () => null }) => void = () => {};
    const loading = new Promise<{ Component: () => null }>((done) => (load = done));
    const router = createMemoryRouter(
      [{ path: '/', children: [{ path: 'alerts', lazy: () => loading }] }],
      { initialEntries: ['/alerts'] },
    );
    let loaded = false;
    const waited = routeLoaded(router).then(() => (loaded = true));
    await Promise.resolve();
    expect(router.state.initialized).toBe(false);
    expect(loaded).toBe(false);
    load({ Component: () => null });
    await waited;
    expect(router.state.initialized).toBe(true);
    // A router that has nothing to load is ready at once.
    const ready = createMemoryRouter([{ path: '/', Component: () => null }]);
    await expect(routeLoaded(ready)).resolves.toBeUndefined();
  });
});
