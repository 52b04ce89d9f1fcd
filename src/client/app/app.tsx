import type { QueryClient } from '@tanstack/react-query';
import { flushSync } from 'react-dom';
import { RouterProvider, type createBrowserRouter } from 'react-router';
import { Providers } from './providers';

/**
 * ReactDOM.flushSync in the shape RouterProvider takes (what `react-router/dom` passes, which
 * is not used directly because under Vitest it resolves to a second copy of the router).
 * It lets URL-driven inputs update within their event (see use-hotspot-filters).
 */
export function flushRouterUpdate(fn: () => unknown): undefined {
  flushSync(fn);
  return undefined;
}

export function App({
  queryClient,
  router,
}: {
  queryClient: QueryClient;
  router: ReturnType<typeof createBrowserRouter>;
}) {
  return (
    <Providers queryClient={queryClient}>
      <RouterProvider router={router} flushSync={flushRouterUpdate} />
    </Providers>
  );
}
