import { NavLink, useLocation } from 'react-router';
import { keepLang } from '../../../lib/app-link';
import { t } from '../../../lib/i18n';

/**
 * The admin pages, one link each: the header keeps a single "Audit log" link (a phone's header
 * has no room for more), and each admin page leads to the others from here, keeping `?lang=`.
 */
export function AdminNav() {
  const { search } = useLocation();
  return (
    <nav aria-label={t('admin.nav')} className="admin-nav">
      <NavLink to={keepLang('/admin/audit', search)}>{t('admin.auditAndSessions')}</NavLink>
      <NavLink to={keepLang('/admin/reach', search)}>{t('admin.feedsAndEmbeds')}</NavLink>
    </nav>
  );
}
