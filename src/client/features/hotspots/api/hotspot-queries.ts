import { queryOptions } from '@tanstack/react-query';
import { hotspotsResponseSchema } from '../../../../shared/schemas/responses';
import { stalenessShape } from '../../../../shared/bff-api';
import { fetchBff } from '../../../lib/api-client';

const hotspotsWithStaleness = hotspotsResponseSchema.extend(stalenessShape);

/** `/api/v1/hotspots`: the key holds every variable of the request (tiers sorted, as the BFF's). */
export const hotspotQueries = {
  all: () => ['hotspots'] as const,
  list: ({ tiers, limit }: { tiers: readonly string[]; limit: number }) => {
    const sortedTiers = [...tiers].sort();
    return queryOptions({
      queryKey: [...hotspotQueries.all(), 'list', { tiers: sortedTiers, limit }] as const,
      queryFn: ({ signal }) => {
        const params = new URLSearchParams({ limit: String(limit) });
        if (sortedTiers.length > 0) params.set('tier', sortedTiers.join(','));
        return fetchBff(`/api/v1/hotspots?${params.toString()}`, hotspotsWithStaleness, signal);
      },
      meta: { label: 'the hotspot list' },
    });
  },
};
