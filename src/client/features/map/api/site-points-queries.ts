import { queryOptions } from '@tanstack/react-query';
import { sitePointsResponseSchema, type SitePointsResponse } from '../../../../shared/sites-api';
import { readBff, requestBff } from '../../../lib/api-client';
import { t } from '../../../lib/i18n';

/** What the layer holds: the points and the ETag they came with (sent back as If-None-Match). */
export interface HeldSitePoints {
  etag: string | null;
  points: SitePointsResponse;
}

/**
 * `/api/sites/points`: the map's compact copy of every site. The BFF sends it `no-store` (sites
 * are sensitive, never in the browser's disk cache), so the query keeps the ETag itself and asks
 * with it: a 304 keeps the points already held, parsed once.
 */
async function fetchSitePoints(
  held: HeldSitePoints | undefined,
  signal: AbortSignal,
): Promise<HeldSitePoints> {
  const response = await requestBff(
    '/api/sites/points',
    signal,
    held?.etag ? { 'If-None-Match': held.etag } : {},
  );
  if (response.status === 304 && held) return held;
  const points = await readBff(response, sitePointsResponseSchema);
  return { etag: response.headers.get('ETag'), points };
}

export const sitePointQueries = {
  /**
   * Under the sites' own key (`['sites', …]`, lib/site-list-queries.ts), so an import or an edit
   * refreshes the map's points as it does every list of sites.
   */
  points: () =>
    queryOptions({
      queryKey: ['sites', 'points'] as const,
      queryFn: ({ client, queryKey, signal }) =>
        fetchSitePoints(client.getQueryData<HeldSitePoints>(queryKey), signal),
      meta: { label: t('queries.sites') },
    }),
};
