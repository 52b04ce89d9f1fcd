import { queryOptions } from '@tanstack/react-query';
import { referenceCountriesResponseSchema } from '../../../../shared/history-api';
import { fetchBff } from '../../../lib/api-client';
import { t } from '../../../lib/i18n';

/**
 * `/api/reference/countries`: every ISO country with aliases and UN region. The list changes only
 * with a release of the dashboard, so it never goes stale within a page's life (the BFF also
 * sends it with a day's max-age).
 */
export const referenceQueries = {
  all: () => ['reference'] as const,
  countries: () =>
    queryOptions({
      queryKey: [...referenceQueries.all(), 'countries'] as const,
      queryFn: ({ signal }) =>
        fetchBff('/api/reference/countries', referenceCountriesResponseSchema, signal),
      staleTime: Number.POSITIVE_INFINITY,
      meta: { label: t('queries.countryNames') },
    }),
};
