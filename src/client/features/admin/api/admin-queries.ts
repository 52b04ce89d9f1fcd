import { queryOptions } from '@tanstack/react-query';
import {
  AUDIT_FILTERS,
  auditPageSchema,
  sessionListSchema,
  type AuditFilters,
} from '../../../../shared/audit-api';
import { fetchBff } from '../../../lib/api-client';
import { t } from '../../../lib/i18n';

/** The filters as a query string, in a fixed order (the same for the page, the API and the CSV). */
export function auditSearch(filters: AuditFilters, cursor?: string | null): string {
  const params = new URLSearchParams();
  for (const name of AUDIT_FILTERS) {
    const value = filters[name]?.trim();
    if (value) params.set(name, value);
  }
  if (cursor) params.set('cursor', cursor);
  const text = params.toString();
  return text ? `?${text}` : '';
}

export const adminQueries = {
  all: () => ['admin'] as const,
  /** One page of the audit log; the cursor is the previous page's `next_cursor`. */
  audit: (filters: AuditFilters, cursor: string | null) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'audit', filters, cursor] as const,
      queryFn: ({ signal }) =>
        fetchBff(`/api/audit${auditSearch(filters, cursor)}`, auditPageSchema, signal),
      meta: { label: t('queries.auditLog') },
    }),
  sessions: () =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'sessions'] as const,
      queryFn: ({ signal }) => fetchBff('/api/sessions', sessionListSchema, signal),
      meta: { label: t('queries.sessions') },
    }),
};
