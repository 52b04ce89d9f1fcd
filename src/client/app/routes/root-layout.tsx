import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Outlet, ScrollRestoration, useLocation, useNavigation } from 'react-router';
import { Link } from '../../lib/app-link';
import { OutageShown } from '../../components/outage-shown';
import { SkipLinks } from '../../components/skip-links';
import { Toaster } from '../../components/toaster';
import { UnreadLink } from '../../features/alerts/components/unread-link';
import { AsOfBar } from '../../features/as-of/components/as-of-bar';
import { showsAsOf } from '../../lib/as-of';
import { AdminLink } from '../../features/admin/components/admin-link';
import { UserMenu } from '../../features/identity/components/user-menu';
import { useNow } from '../../lib/use-now';
import { statusQueries } from '../../features/status/api/status-queries';
import { BatchNotice } from '../../features/status/components/batch-notice';
import { DemoBadge } from '../../features/status/components/demo-badge';
import { outageShown, StatusBanner } from '../../features/status/components/status-banner';
import { StatusLine } from '../../features/status/components/status-line';
import { useBatchWatch } from '../../features/status/hooks/use-batch-watch';
import { useQuotaFollow } from '../../features/status/hooks/use-quota-follow';
import { LanguageFollow } from '../language-follow';
import { OfflineBanner } from '../offline-banner';
import { SearchHost } from '../search-host';

/** The frame of every page: title bar (with the demo badge), status banner, content, toasts. */
export function RootLayout() {
  const arrival = useBatchWatch();
  useQuotaFollow();
  const status = useQuery(statusQueries.current());
  const navigation = useNavigation();
  const { pathname } = useLocation();
  const now = useNow();
  const { t, i18n } = useTranslation();
  return (
    <>
      <LanguageFollow />
      <SkipLinks />
      <header className="app-bar">
        <Link to="/" className="brand">
          <span className="brand-mark" aria-hidden="true" />
          {t('shell.brand')}
        </Link>
        <DemoBadge status={status.data?.data} />
        <SearchHost />
        {status.data?.data.history ? (
          // Sites, events, watchlists and alerts live in the history store: shown when the BFF keeps one.
          <nav className="app-nav" aria-label={t('shell.navLabel')}>
            <Link to="/exposure">{t('shell.exposure')}</Link>
            <Link to="/events">{t('shell.events')}</Link>
            <Link to="/watchlists">{t('shell.watchlists')}</Link>
            <UnreadLink />
          </nav>
        ) : null}
        <AdminLink />
        <UserMenu />
        {navigation.state === 'loading' ? (
          <span className="nav-progress" role="status">
            {t('shell.loading')}
          </span>
        ) : null}
      </header>
      <OfflineBanner />
      <StatusBanner status={status.data?.data} now={now} />
      <BatchNotice arrival={arrival} />
      {status.data?.data.history && showsAsOf(pathname) ? (
        <AsOfBar onOverview={pathname === '/'} withJump={pathname.startsWith('/country/')} />
      ) : null}
      <OutageShown.Provider value={outageShown(status.data?.data)}>
        {/* Remade in a new language: numbers and names outside i18next's reach follow too. */}
        <main id="main" tabIndex={-1} key={i18n.language}>
          <Outlet />
        </main>
      </OutageShown.Provider>
      <footer className="app-footer">
        <StatusLine status={status.data?.data} />
        <p>
          {t('shell.footerData')}
          {status.data?.data.mode === 'demo' ? t('shell.footerDemo') : ''}. {t('shell.footerTimes')}{' '}
          {t('shell.footerShapes')}
        </p>
      </footer>
      <Toaster />
      <ScrollRestoration />
    </>
  );
}
