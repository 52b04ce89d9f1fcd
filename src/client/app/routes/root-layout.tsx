import { useQuery } from '@tanstack/react-query';
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
  return (
    <>
      <SkipLinks />
      <header className="app-bar">
        <Link to="/" className="brand">
          <span className="brand-mark" aria-hidden="true" />
          Global Risk Dashboard
        </Link>
        <DemoBadge status={status.data?.data} />
        <SearchHost />
        {status.data?.data.history ? (
          // Sites, events, watchlists and alerts live in the history store: shown when the BFF keeps one.
          <nav className="app-nav" aria-label="Exposure, watchlists, events and alerts">
            <Link to="/exposure">Exposure</Link>
            <Link to="/events">Events</Link>
            <Link to="/watchlists">Watchlists</Link>
            <UnreadLink />
          </nav>
        ) : null}
        <AdminLink />
        <UserMenu />
        {navigation.state === 'loading' ? (
          <span className="nav-progress" role="status">
            Loading…
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
        <main id="main" tabIndex={-1}>
          <Outlet />
        </main>
      </OutageShown.Provider>
      <footer className="app-footer">
        <StatusLine status={status.data?.data} />
        <p>
          Data: Global Risk Index API via this dashboard&apos;s server
          {status.data?.data.mode === 'demo' ? ' (demo data generated locally)' : ''}. Times in UTC.
          Shapes: Natural Earth.
        </p>
      </footer>
      <Toaster />
      <ScrollRestoration />
    </>
  );
}
