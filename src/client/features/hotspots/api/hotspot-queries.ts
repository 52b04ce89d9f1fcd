import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { hotspotsResponseSchema } from '../../../../shared/schemas/responses';
import { stalenessShape } from '../../../../shared/bff-api';
import { fetchBff } from '../../../lib/api-client';
import { asOfKey, indexKey, pastBatch } from '../../../lib/bff-queries';
import { withRiskIndex } from '../../../lib/risk-index';
import type { RiskIndex } from '../../../../shared/team-index-api';
import { hotspotsPath, withAsOf } from '../../../../shared/page-data';
import { t } from '../../../lib/i18n';

const hotspotsWithStaleness = z.extend(hotspotsResponseSchema, stalenessShape);

/** `/api/v1/hotspots`: the key holds every variable of the request (tiers sorted, as the BFF's). */
export const hotspotQueries = {
  all: () => ['hotspots'] as const,
  list: (
    { tiers, limit }: { tiers: readonly string[]; limit: number },
    asOf: string | null = null,
    index: RiskIndex = 'provider',
  ) => {
    const sortedTiers = [...tiers].sort();
    return queryOptions({
      queryKey: [
        ...hotspotQueries.all(),
        'list',
        { tiers: sortedTiers, limit },
        ...asOfKey(asOf),
        ...indexKey(index),
      ] as const,
      // The same path the BFF announces as a preload hint on the page (shared/page-data.ts).
      queryFn: ({ signal }) =>
        fetchBff(
          withRiskIndex(withAsOf(hotspotsPath(sortedTiers, limit), asOf), index),
          hotspotsWithStaleness,
          signal,
        ),
      ...pastBatch(asOf),
      meta: { label: t('queries.hotspots') },
    });
  },
};
