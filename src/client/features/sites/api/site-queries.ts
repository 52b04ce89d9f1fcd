import { queryOptions } from '@tanstack/react-query';
import {
  importResponseSchema,
  siteDeletedSchema,
  siteResponseSchema,
  type Site,
  type SiteInput,
} from '../../../../shared/sites-api';
import { ApiError, fetchBff } from '../../../lib/api-client';
import { writeBff } from '../../../lib/api-write';
import { siteListQueries } from '../../../lib/site-list-queries';

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
      meta: { label: 'the site' },
    }),
};

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
 * A new site. The BFF creates sites by import (matched by ref), so a dry run first makes sure
 * the ref is not another site's: an import would replace that site instead of adding one. The
 * site gets the default rule (an import row has no rule yet); it is adjusted on its page.
 */
export async function createSite(input: SiteInput): Promise<{ id: number }> {
  const row = [{ ...input, alert: undefined }];
  const check = await writeBff('POST', '/api/sites/import?dry_run=1', importResponseSchema, {
    body: row,
  });
  refuseUnlessNew(check.data);
  const done = await writeBff('POST', '/api/sites/import', importResponseSchema, { body: row });
  refuseUnlessNew(done.data);
  const id = done.data.created[0]?.id;
  if (typeof id !== 'number') throw new ApiError('The dashboard server stored no new site', 0);
  return { id };
}

function refuseUnlessNew(answer: { created: unknown[]; rejected: { reason: string }[] }): void {
  const rejected = answer.rejected[0];
  if (rejected) throw new ApiError(rejected.reason, 400);
  if (answer.created.length === 0) {
    throw new ApiError('ref: another site already has this ref', 409);
  }
}
