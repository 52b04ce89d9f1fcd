import { queryOptions } from '@tanstack/react-query';
import {
  importResponseSchema,
  siteAlertDeliveryResponseSchema,
  siteDeletedSchema,
  siteResponseSchema,
  type Site,
  type SiteAlertDeliveryInput,
  type SiteInput,
} from '../../../../shared/sites-api';
import type { Watchlist } from '../../../../shared/alerts-api';
import { fetchBff } from '../../../lib/api-client';
import { writeBff } from '../../../lib/api-write';
import { siteListQueries } from '../../../lib/site-list-queries';
import { t } from '../../../lib/i18n';

/** Our sites: the list is shared with the map and the country page (lib/site-list-queries). */
export const siteQueries = {
  all: siteListQueries.all,
  list: siteListQueries.list,
  /** `/api/sites/:id`: one site with its country's current numbers. */
  detail: (id: string) =>
    queryOptions({
      queryKey: [...siteListQueries.all(), 'detail', id] as const,
      queryFn: ({ signal }) =>
        fetchBff(`/api/sites/${encodeURIComponent(id)}`, siteResponseSchema, signal),
      meta: { label: t('queries.site') },
    }),
  /** `/api/sites/alert-delivery`: where site alerts go (the "Our sites" list's webhook, e-mail). */
  alertDelivery: () =>
    queryOptions({
      queryKey: ['site-alert-delivery'] as const,
      queryFn: ({ signal }) =>
        fetchBff('/api/sites/alert-delivery', siteAlertDeliveryResponseSchema, signal),
      meta: { label: t('queries.siteDelivery') },
    }),
};

/** Sets where site alerts go, with If-Match: a change made elsewhere first is a 412. */
export function saveAlertDelivery({
  base,
  input,
}: {
  base: Pick<Watchlist, 'version'>;
  input: SiteAlertDeliveryInput;
}) {
  return writeBff('PUT', '/api/sites/alert-delivery', siteAlertDeliveryResponseSchema, {
    body: input,
    ifMatch: `"${base.version}"`,
  });
}

/** What an import sends: the text of a CSV file (or pasted cells), or a JSON array of sites. */
export interface ImportRequest {
  text: string;
  dryRun: boolean;
}

/** A JSON array (pasted from another tool) goes as JSON; anything else is a CSV file's text. */
export function importContentType(text: string): 'application/json' | 'text/csv; charset=utf-8' {
  return text.trimStart().startsWith('[') ? 'application/json' : 'text/csv; charset=utf-8';
}

export function importSites({ text, dryRun }: ImportRequest) {
  return writeBff('POST', `/api/sites/import${dryRun ? '?dry_run=1' : ''}`, importResponseSchema, {
    body: text,
    contentType: importContentType(text),
  });
}

/** The ETag of the site an edit started from: `If-Match` on PUT and DELETE. */
export const etagOf = (site: Pick<Site, 'version'>): string => `"${site.version}"`;

/** An edit: what was typed replaces the site `base` (the version the form was loaded from). */
export interface SiteEdit {
  base: Site;
  input: SiteInput;
}

export function saveSite({ base, input }: SiteEdit) {
  return writeBff('PUT', `/api/sites/${base.id}`, siteResponseSchema, {
    body: input,
    ifMatch: etagOf(base),
  });
}

export function deleteSite(site: Site) {
  return writeBff('DELETE', `/api/sites/${site.id}`, siteDeletedSchema, {
    ifMatch: etagOf(site),
  });
}

/**
 * A new site (`POST /api/sites`): checked and placed as an import row is; a ref another site has
 * is refused (409), never replaced. Sent without a rule, the site gets the default one; it is
 * adjusted on its page.
 */
export async function createSite(input: SiteInput): Promise<{ id: number }> {
  const done = await writeBff('POST', '/api/sites', siteResponseSchema, {
    body: { ...input, alert: undefined },
  });
  return { id: done.data.site.id };
}
