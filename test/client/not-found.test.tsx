import { screen } from '@testing-library/react';
import { expect, it } from 'vitest';
import { statusBody, shellRoutes } from './fixtures/data';
import { installFakeBff } from './fake-bff';
import { renderApp } from './render-app';

it('an unknown path shows "Page not found" with a way back, and the demo badge', async () => {
  installFakeBff({ ...shellRoutes(), '/api/status': { body: statusBody() } });
  renderApp('/nowhere/at/all');
  expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  expect(screen.getByText('/nowhere/at/all')).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Back to the overview' })).toHaveAttribute('href', '/');
  expect(await screen.findByText('Demo data')).toBeInTheDocument();
});

it('live mode shows no demo badge', async () => {
  // The banner's message comes from the same status answer as the badge would: once it is on
  // screen, the answer has rendered, so the badge's absence means something.
  const upstream = { health: 'degraded' as const, last_error: null, message: 'Live status seen' };
  installFakeBff({
    ...shellRoutes(),
    '/api/status': { body: statusBody({ mode: 'live', upstream }) },
  });
  renderApp('/nowhere');
  await screen.findByRole('heading', { name: 'Page not found' });
  expect(await screen.findByText(/^Live status seen/)).toBeInTheDocument();
  expect(screen.queryByText('Demo data')).toBeNull();
  expect(screen.getByRole('contentinfo')).not.toHaveTextContent('demo data');
});
