import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { flushRouterUpdate } from '../../src/client/app/app';
import { Providers } from '../../src/client/app/providers';
import { routes } from '../../src/client/app/routes';
import { createQueryClient } from '../../src/client/lib/query-client';

/**
 * Renders the real app (routes, providers, query client) at `path`. Only the retry delay is
 * shortened, so tests of failures do not wait seconds; which errors are retried stays real.
 */
export function renderApp(path: string) {
  const queryClient = createQueryClient();
  const defaults = queryClient.getDefaultOptions();
  queryClient.setDefaultOptions({
    ...defaults,
    queries: { ...defaults.queries, retryDelay: 1 },
  });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <Providers queryClient={queryClient}>
      <RouterProvider router={router} flushSync={flushRouterUpdate} />
    </Providers>,
  );
  return { ...view, router, queryClient };
}
