import type { QueryClient } from '@tanstack/react-query';
import { flushSync } from 'react-dom';
import { RouterProvider, type createBrowserRouter } from 'react-router';
import { Providers } from './providers';

export function App({
  queryClient,
  router,
}: {
  queryClient: QueryClient;
  router: ReturnType<typeof createBrowserRouter>;
}) {
  return (
    <Providers queryClient={queryClient}>
      {/* flushSync lets URL-driven inputs update within their event (see use-hotspot-filters). */}
      <RouterProvider router={router} flushSync={flushSync} />
    </Providers>
  );
}
