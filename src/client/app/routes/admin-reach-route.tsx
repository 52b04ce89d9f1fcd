import { PanelBoundary } from '../../components/panel-boundary';
import { useIsAdmin } from '../../features/admin/components/admin-link';
import { AdminNav } from '../../features/admin/components/admin-nav';
import { EmbedsPanel } from '../../features/admin/components/embeds-panel';
import { FeedTokensPanel } from '../../features/admin/components/feed-tokens-panel';

/** `/admin/reach`: feed tokens and embeds (issue 34); admins only (the server refuses others). */
export function AdminReachRoute() {
  const admin = useIsAdmin();
  return (
    <div className="admin-page">
      <title>Feeds and embeds · Global Risk Dashboard</title>
      <h1>Feeds and embeds</h1>
      {admin ? <AdminNav /> : null}
      {admin ? (
        <>
          <PanelBoundary name="The feed tokens">
            <FeedTokensPanel />
          </PanelBoundary>
          <PanelBoundary name="The embeds">
            <EmbedsPanel />
          </PanelBoundary>
        </>
      ) : (
        <p>
          This page is for admins: it makes the tokens spreadsheets read and the embeds other sites
          show.
        </p>
      )}
    </div>
  );
}
