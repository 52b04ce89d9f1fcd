import { queryOptions } from '@tanstack/react-query';
import type { AliasSource } from '../../../lib/country-search';

/**
 * The common-name list for search, as a lazily loaded chunk (not a request): held by the query
 * cache like any other data, loaded once, never stale.
 */
export const countryAliasQueries = {
  all: () =>
    queryOptions({
      queryKey: ['reference', 'country-aliases'] as const,
      queryFn: async (): Promise<AliasSource> =>
        (await import('../../../lib/country-names')).countryAliases,
      staleTime: Infinity,
      gcTime: Infinity,
      structuralSharing: false,
      meta: { label: 'the list of country names' },
    }),
};
