import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { Site } from '../../../../shared/sites-api';
import {
  createSite,
  deleteSite,
  importSites,
  saveAlertDelivery,
  saveSite,
  siteQueries,
} from './site-queries';

/*
 * Every change to our sites goes through a hook here, and each owns what it makes stale: the
 * sites list (map, country page, site pages) and the exposure figures, which count the sites.
 */

/** The exposure feature's key (features do not import each other): its figures count the sites. */
const EXPOSURE_KEY = ['exposure'] as const;

function useRefreshSites() {
  const queryClient = useQueryClient();
  return (keep: (key: QueryKey) => boolean = () => false) =>
    Promise.all([
      queryClient.invalidateQueries({
        queryKey: siteQueries.all(),
        predicate: (query) => !keep(query.queryKey),
      }),
      queryClient.invalidateQueries({ queryKey: EXPOSURE_KEY }),
      // The first site brings the "Our sites" list: where its alerts go can then be set.
      queryClient.invalidateQueries({ queryKey: siteQueries.alertDelivery().queryKey }),
    ]);
}

/**
 * An import, or its dry run. A dry run stores nothing, so it refreshes nothing; an import
 * refreshes every sites and exposure query, whether it succeeded or not (a failure may have
 * come after the store answered).
 */
export function useImportSites() {
  const refresh = useRefreshSites();
  return useMutation({
    mutationFn: importSites,
    onSettled: async (_data, _error, request) => {
      if (request.dryRun) return;
      await refresh();
    },
  });
}

/** A new site (`POST /api/sites`; a ref another site has is refused). */
export function useCreateSite() {
  const refresh = useRefreshSites();
  return useMutation({ mutationFn: createSite, onSettled: () => refresh() });
}

/**
 * Replaces a site with If-Match: an edit made elsewhere first is a 412, never overwritten.
 * Refreshes whether it succeeded or not (a 412 means the cache is old).
 */
export function useSaveSite() {
  const refresh = useRefreshSites();
  return useMutation({ mutationFn: saveSite, onSettled: () => refresh() });
}

/**
 * Deletes a site with If-Match. Once deleted, its own page's query is marked stale but not
 * asked again while the page is still open (it would flash "No such site" before the page
 * moves on); it is asked again if the page is opened later.
 */
export function useDeleteSite() {
  const queryClient = useQueryClient();
  const refresh = useRefreshSites();
  return useMutation({
    mutationFn: deleteSite,
    onSettled: async (_data, error, site: Site) => {
      if (error) return refresh();
      const detail = siteQueries.detail(String(site.id)).queryKey;
      const same = (key: QueryKey) => JSON.stringify(key) === JSON.stringify(detail);
      await Promise.all([
        refresh(same),
        queryClient.invalidateQueries({ queryKey: detail, exact: true, refetchType: 'none' }),
      ]);
    },
  });
}

/** Where site alerts go: refreshed after the save, whether it succeeded or not (a 412). */
export function useSaveAlertDelivery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveAlertDelivery,
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: siteQueries.alertDelivery().queryKey }),
  });
}
