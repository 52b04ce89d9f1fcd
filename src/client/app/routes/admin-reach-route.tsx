import { PanelBoundary } from '../../components/panel-boundary';
import { useIsAdmin } from '../../features/admin/components/admin-link';
import { AdminNav } from '../../features/admin/components/admin-nav';
import { EmbedsPanel } from '../../features/admin/components/embeds-panel';
import { FeedTokensPanel } from '../../features/admin/components/feed-tokens-panel';
import { t } from '../../lib/i18n';
import { pageTitle } from '../../lib/page-title';

/** `/admin/reach`: feed tokens and embeds (issue 34); admins only (the server refuses others). */
export function AdminReachRoute() {
  const admin = useIsAdmin();
  return (
    <div className="admin-page">
      <title>{pageTitle(t('admin.feedsAndEmbeds'))}</title>
      <h1>{t('admin.feedsAndEmbeds')}</h1>
      {admin ? <AdminNav /> : null}
      {admin ? (
        <>
          <PanelBoundary name={t('admin.theFeedTokens')}>
            <FeedTokensPanel />
          </PanelBoundary>
          <PanelBoundary name={t('admin.theEmbeds')}>
            <EmbedsPanel />
          </PanelBoundary>
        </>
      ) : (
        <p>{t('admin.reachForAdmins')}</p>
      )}
    </div>
  );
}
