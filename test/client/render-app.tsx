import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterAll } from 'vitest';
import { flushRouterUpdate } from '../../src/client/app/app';
import { loadCountryRoute } from '../../src/client/app/load-country-route';
import { Providers } from '../../src/client/app/providers';
import { routes } from '../../src/client/app/routes';
import { createQueryClient } from '../../src/client/lib/query-client';

// The overview fetches the country page's chunk on intent (a hover, a focus): a test may end
// while that import is still loading its modules, and the file's environment is then torn down
// under it (vitest reports "Cannot load … after the environment was torn down"). Wait for it:
// the import is cached, so this costs nothing when it already finished.
afterAll(() => loadCountryRoute());

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
