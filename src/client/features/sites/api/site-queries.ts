import { queryOptions } from '@tanstack/react-query';
import { importResponseSchema, siteResponseSchema } from '../../../../shared/sites-api';
import { fetchBff } from '../../../lib/api-client';
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
