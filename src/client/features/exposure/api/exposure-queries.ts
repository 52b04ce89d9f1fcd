import { queryOptions } from '@tanstack/react-query';
import { exposureResponseSchema, type ExposureWeight } from '../../../../shared/sites-api';
import { fetchBff } from '../../../lib/api-client';
import type { SiteFilters } from '../../../lib/site-filters';
import { exposurePath } from '../utils/exposure-view';

/** `/api/exposure`: the key is the exact path, which holds every filter and the weight. */
export const exposureQueries = {
  all: () => ['exposure'] as const,
  summary: (filters: SiteFilters, weight: ExposureWeight) => {
    const path = exposurePath(filters, weight);
    return queryOptions({
      queryKey: [...exposureQueries.all(), path] as const,
      queryFn: ({ signal }) => fetchBff(path, exposureResponseSchema, signal),
      meta: { label: 'the exposure of our sites' },
    });
  },
};
