import type { RouteObject } from 'react-router';
import { NotFoundRoute } from './routes/not-found-route';
import { overviewHandle, OverviewRoute } from './routes/overview-route';
import { RootLayout } from './routes/root-layout';
import { RouteError } from './routes/route-error';
import { loadCountryRoute } from './load-country-route';

/**
 * The route table, shared by the browser router (main.tsx) and tests (createMemoryRouter).
 * Every view is a URL: `/`, `/country/:iso`, `/compare?iso=…`, and anything else is "not found".
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    Component: RootLayout,
    ErrorBoundary: RouteError,
    HydrateFallback: () => null,
    children: [
      { index: true, Component: OverviewRoute, handle: overviewHandle },
      {
        path: 'country/:iso',
        // Past the header, map, trends and categories to the events in three key presses
        // (issue 33, point 14): Tab, Tab, Enter.
        handle: { skipLinks: [{ target: 'country-events', label: 'Skip to the events' }] },
        lazy: async () => ({ Component: (await loadCountryRoute()).CountryRoute }),
      },
      {
        path: 'compare',
        lazy: async () => ({ Component: (await import('./routes/compare-route')).CompareRoute }),
      },
      // Watchlists, alerts and briefs (issue 8): loaded on demand, outside the overview's budget.
      {
        path: 'events',
        lazy: async () => ({ Component: (await import('./routes/events-route')).EventsRoute }),
      },
      {
        path: 'alerts',
        lazy: async () => ({ Component: (await import('./routes/alerts-route')).AlertsRoute }),
      },
      {
        path: 'watchlists',
        lazy: async () => ({
          Component: (await import('./routes/watchlists-route')).WatchlistsRoute,
        }),
      },
      {
        path: 'watchlists/:id',
        lazy: async () => ({
          Component: (await import('./routes/watchlist-route')).WatchlistRoute,
        }),
      },
      {
        path: 'brief/:watchlistId?',
        lazy: async () => ({ Component: (await import('./routes/brief-route')).BriefRoute }),
      },
      // Our sites (issue 20): loaded on demand, outside the overview's budget.
      {
        path: 'exposure',
        lazy: async () => ({ Component: (await import('./routes/exposure-route')).ExposureRoute }),
      },
      {
        path: 'exposure/brief',
        lazy: async () => ({
          Component: (await import('./routes/exposure-brief-route')).ExposureBriefRoute,
        }),
      },
      {
        path: 'admin/audit',
        lazy: async () => ({
          Component: (await import('./routes/admin-audit-route')).AdminAuditRoute,
        }),
      },
      {
        path: 'admin/reach',
        lazy: async () => ({
          Component: (await import('./routes/admin-reach-route')).AdminReachRoute,
        }),
      },
      {
        path: 'sites/:id',
        lazy: async () => ({ Component: (await import('./routes/site-route')).SiteRoute }),
      },
      { path: '*', Component: NotFoundRoute },
    ],
  },
];
