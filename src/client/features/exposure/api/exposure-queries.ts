import { queryOptions } from '@tanstack/react-query';
import { exposureResponseSchema, type ExposureWeight } from '../../../../shared/sites-api';
import { fetchBff } from '../../../lib/api-client';
import { pastBatch } from '../../../lib/bff-queries';
import { withRiskIndex } from '../../../lib/risk-index';
import type { RiskIndex } from '../../../../shared/team-index-api';
import type { SiteFilters } from '../../../lib/site-filters';
import { exposurePath } from '../utils/exposure-view';
import { t } from '../../../lib/i18n';

/**
 * `/api/exposure`: the key is the exact path, which holds every filter, the weight and the
 * batch asked for (`as_of`; a recorded batch's answer never goes stale).
 */
export const exposureQueries = {
  all: () => ['exposure'] as const,
  summary: (
    filters: SiteFilters,
    weight: ExposureWeight,
    asOf: string | null = null,
    index: RiskIndex = 'provider',
  ) => {
    // With `index` team (issue 31): by our tier, the provider's count beside it.
    const path = withRiskIndex(exposurePath(filters, weight, asOf), index);
    return queryOptions({
      queryKey: [...exposureQueries.all(), path] as const,
      queryFn: ({ signal }) => fetchBff(path, exposureResponseSchema, signal),
      meta: { label: t('queries.exposure') },
      ...pastBatch(asOf),
    });
  },
};
