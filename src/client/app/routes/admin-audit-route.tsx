import { PanelBoundary } from '../../components/panel-boundary';
import { useIsAdmin } from '../../features/admin/components/admin-link';
import { AdminNav } from '../../features/admin/components/admin-nav';
import { AuditLog } from '../../features/admin/components/audit-log';
import { SessionsPanel } from '../../features/admin/components/sessions-panel';

/** `/admin/audit`: the audit log and who is signed in; admins only (the server refuses others). */
export function AdminAuditRoute() {
  const admin = useIsAdmin();
  return (
    <div className="admin-page">
      <title>Audit log · Global Risk Dashboard</title>
      <h1>Audit log and sessions</h1>
      {admin ? <AdminNav /> : null}
      {admin ? (
        <>
          <PanelBoundary name="The audit log">
            <AuditLog />
          </PanelBoundary>
          <PanelBoundary name="The sessions">
            <SessionsPanel />
          </PanelBoundary>
        </>
      ) : (
        <p>This page is for admins: it shows who changed what, and who is signed in.</p>
      )}
    </div>
  );
}
