import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { pageDataPaths } from '../../src/shared/page-data';
import { worldMapQuery } from '../../src/client/app/load-world-map';
import { startPageData } from '../../src/client/app/start-page-data';
import { hotspotQueries } from '../../src/client/features/hotspots/api/hotspot-queries';
import { parseFilters } from '../../src/client/features/hotspots/utils/filters';
import { shapeQueries } from '../../src/client/features/map/api/shape-queries';
import { countriesBody, countryBody, hotspotsBody, statusBody } from './fixtures/data';
import { installFakeBff } from './fake-bff';

function fakeBff() {
  return installFakeBff({
    '/api/status': { body: statusBody() },
    '/api/countries': { body: countriesBody() },
    '/api/v1/hotspots': { body: hotspotsBody() },
    '/api/v1/country/UKR': { body: countryBody() },
  });
}

const asked = (requests: URL[]) => requests.map((url) => `${url.pathname}${url.search}`).sort();

describe('the start of the page (first paint)', () => {
  it("asks for exactly the overview's preloaded paths, under the keys the overview reads", async () => {
    const bff = fakeBff();
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const search = '?tier=High,crit&limit=50&sort=name';
    startPageData(queryClient, { pathname: '/', search });
    // The same paths the BFF announces as preload hints: a preload is reused only on an exact match.
    expect(asked(bff.requests)).toEqual(pageDataPaths('/', new URLSearchParams(search)).sort());
    const hotspotKey = hotspotQueries.list(parseFilters(new URLSearchParams(search))).queryKey;
    await expect.poll(() => queryClient.getQueryState(hotspotKey)?.status).toBe('success');
    // The map's chunks are on their way too, and end up where the overview reads them.
    await expect
      .poll(() => typeof queryClient.getQueryData(worldMapQuery().queryKey))
      .toBe('function');
    await expect
      .poll(() => queryClient.getQueryData(shapeQueries.world().queryKey)?.features.length ?? 0)
      .toBeGreaterThan(150);
  });

  it("asks for a country page's preloaded paths; other pages and lower-case codes start nothing", () => {
    const bff = fakeBff();
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    startPageData(queryClient, { pathname: '/country/UKR', search: '' });
    expect(asked(bff.requests)).toEqual(
      pageDataPaths('/country/UKR', new URLSearchParams()).sort(),
    );
    startPageData(queryClient, { pathname: '/country/ukr', search: '' });
    startPageData(queryClient, { pathname: '/compare', search: '?iso=UKR,RUS' });
    expect(bff.requests).toHaveLength(2);
  });
});
