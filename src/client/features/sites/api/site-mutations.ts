import { useMutation, useQueryClient } from '@tanstack/react-query';
import { importSites, siteQueries } from './site-queries';

/*
 * Every change to our sites goes through a hook here, and each owns what it makes stale: the
 * sites list (map, country page, site pages) and the exposure figures, which count the sites.
 */

/**
 * An import, or its dry run. A dry run stores nothing, so it refreshes nothing; an import
 * refreshes every sites and exposure query, whether it succeeded or not (a failure may have
 * come after the store answered).
 */
export function useImportSites() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importSites,
    onSettled: async (_data, _error, request) => {
      if (request.dryRun) return;
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: siteQueries.all() }),
        // The exposure feature's key (features do not import each other): its figures count the sites.
        queryClient.invalidateQueries({ queryKey: ['exposure'] }),
      ]);
    },
  });
}
