import { PanelBoundary } from '../../components/panel-boundary';
import { useIsAdmin } from '../../features/admin/components/admin-link';
import { AdminNav } from '../../features/admin/components/admin-nav';
import { AuditLog } from '../../features/admin/components/audit-log';
import { SessionsPanel } from '../../features/admin/components/sessions-panel';
import { t } from '../../lib/i18n';
import { pageTitle } from '../../lib/page-title';

/** `/admin/audit`: the audit log and who is signed in; admins only (the server refuses others). */
export function AdminAuditRoute() {
  const admin = useIsAdmin();
  return (
    <div className="admin-page">
      <title>{pageTitle(t('shell.auditLog'))}</title>
      <h1>{t('admin.auditAndSessions')}</h1>
      {admin ? <AdminNav /> : null}
      {admin ? (
        <>
          <PanelBoundary name={t('admin.theAuditLog')}>
            <AuditLog />
          </PanelBoundary>
          <PanelBoundary name={t('admin.theSessions')}>
            <SessionsPanel />
          </PanelBoundary>
        </>
      ) : (
        <p>{t('admin.auditForAdmins')}</p>
      )}
    </div>
  );
}
