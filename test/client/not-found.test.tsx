import { screen } from '@testing-library/react';
import { expect, it } from 'vitest';
import { statusBody } from './fixtures/data';
import { installFakeBff } from './fake-bff';
import { renderApp } from './render-app';

it('an unknown path shows "Page not found" with a way back, and the demo badge', async () => {
  installFakeBff({ '/api/status': { body: statusBody() } });
  renderApp('/nowhere/at/all');
  expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  expect(screen.getByText('/nowhere/at/all')).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Back to the overview' })).toHaveAttribute('href', '/');
  expect(await screen.findByText('Demo data')).toBeInTheDocument();
});

it('live mode shows no demo badge', async () => {
  const bff = installFakeBff({ '/api/status': { body: statusBody({ mode: 'live' }) } });
  renderApp('/nowhere');
  await screen.findByRole('heading', { name: 'Page not found' });
  await expect.poll(() => bff.calls('/api/status').length).toBeGreaterThan(0);
  // Give the status answer a turn to render before asserting the absence.
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(screen.queryByText('Demo data')).toBeNull();
  expect(screen.getByRole('contentinfo')).not.toHaveTextContent('demo data');
});
