import { queryOptions, useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { AliasSource } from './country-search';
import { commonName } from './display-name';
import { t } from './i18n';

/**
 * The common-name list for search, as a lazily loaded chunk (not a request): held by the query
 * cache like any other data, loaded once, never stale.
 */
export const countryAliasQueries = {
  all: () =>
    queryOptions({
      queryKey: ['reference', 'country-aliases'] as const,
      queryFn: async (): Promise<AliasSource> => (await import('./country-names')).countryAliases,
      staleTime: Infinity,
      gcTime: Infinity,
      structuralSharing: false,
      meta: { label: t('queries.aliases') },
    }),
};

/**
 * Every name a table's search should match for a country: the name shown, then (once loaded)
 * the common names ("UK", "Ivory Coast"). They only matter once someone searches: loaded then,
 * not with the page.
 */
export function useSearchAliases(searching: boolean): AliasSource {
  const loaded = useQuery({ ...countryAliasQueries.all(), enabled: searching }).data;
  return useCallback(
    (iso: string) => [commonName(iso), ...(loaded?.(iso) ?? [])].filter(Boolean),
    [loaded],
  );
}
