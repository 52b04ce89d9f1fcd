import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Link } from '../../../lib/app-link';
import { meQueries } from '../../../lib/me-queries';

/** Whether the signed-in person is known to be an admin (unknown: not shown). */
export function useIsAdmin(): boolean {
  const me = useQuery(meQueries.current());
  return me.data?.data.role === 'admin';
}

/** The header's link to the audit log and sessions: admins only (others could not use it). */
export function AdminLink() {
  const { t } = useTranslation();
  return useIsAdmin() ? <Link to="/admin/audit">{t('shell.auditLog')}</Link> : null;
}
