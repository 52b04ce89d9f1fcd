import { queryOptions, useQuery } from '@tanstack/react-query';
import { meSchema, roleAtLeast, type Role } from '../../shared/roles';
import { fetchBff } from './api-client';
import { t } from './i18n';

/**
 * `/api/me`: who is signed in and their role. Shared by every feature that hides what a role
 * cannot do (the server refuses it anyway), so it lives below them.
 */
export const meQueries = {
  current: () =>
    queryOptions({
      queryKey: ['me'] as const,
      queryFn: ({ signal }) => fetchBff('/api/me', meSchema, signal),
      staleTime: 5 * 60_000,
      meta: { label: t('queries.me') },
    }),
};

/**
 * Whether the person may do what `needed` may. Until the role is known (or if it cannot be
 * read) controls stay: hiding is a courtesy, the server's 403 is the rule.
 */
export function useCan(needed: Role): boolean {
  const me = useQuery(meQueries.current());
  const role = me.data?.data.role;
  return role === undefined || roleAtLeast(role, needed);
}
