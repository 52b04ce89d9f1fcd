import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { worldMapQuery } from '../../src/client/app/load-world-map';
import { startPageChunks } from '../../src/client/app/start-page-chunks';
import { shapeQueries } from '../../src/client/features/map/api/shape-queries';
import { installFakeBff } from './fake-bff';

describe('the start of the page (first paint)', () => {
  it("loads the overview's map chunk and shapes where the overview reads them, and no data", async () => {
    const bff = installFakeBff({});
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    startPageChunks(queryClient, { pathname: '/' });
    await expect
      .poll(() => typeof queryClient.getQueryData(worldMapQuery().queryKey))
      .toBe('function');
    await expect
      .poll(() => queryClient.getQueryData(shapeQueries.world().queryKey)?.features.length ?? 0)
      .toBeGreaterThan(150);
    // The data is the components' to ask for: they take the answers the BFF preloads, and an
    // error is not fetched twice (once here, once more when the page mounts).
    expect(bff.requests).toEqual([]);
  });

  it('starts nothing in the query cache for other pages', () => {
    installFakeBff({});
    const queryClient = new QueryClient();
    for (const pathname of ['/country/UKR', '/compare', '/watchlists']) {
      startPageChunks(queryClient, { pathname });
    }
    expect(queryClient.getQueryCache().getAll()).toEqual([]);
  });
});
