import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { countriesBody, hotspotsBody, statusBody, shellRoutes } from './fixtures/data';
import { countryHistoryRoutes, historyRoutes } from './fixtures/history';
import { installFakeBff } from './fake-bff';
import { renderApp } from './render-app';

/*
 * Provider risk ↔ team index on the overview (issue 31): the choice is in the URL (a shared link
 * opens the same view) and asks the BFF for the team view; the provider's figure is one click
 * away, labelled.
 */
function bff() {
  return installFakeBff({
    ...shellRoutes(),
    '/api/status': { body: statusBody() },
    ...historyRoutes(),
    ...countryHistoryRoutes({ SDN: 'Sudan' }),
    '/api/countries': (url) => {
      const body = countriesBody();
      if (url.searchParams.get('index') !== 'team') return { body };
      return { body: { ...body, index: { kind: 'team', name: 'Logistics view' } } };
    },
    '/api/v1/hotspots': { body: hotspotsBody() },
  });
}

describe('the risk index switch', () => {
  it('puts the team view in the URL, asks for it, and names it; the provider is one click away', async () => {
    const fake = bff();
    const { router } = renderApp('/');
    const provider = await screen.findByRole('button', { name: 'Provider’s risk' });
    expect(provider).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(screen.getByRole('button', { name: /^Team index/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?index=team'));
    expect(
      await screen.findByRole('button', { name: 'Team index: Logistics view' }),
    ).toHaveAttribute('aria-pressed', 'true');
    expect(fake.calls('/api/countries').some((u) => u.searchParams.get('index') === 'team')).toBe(
      true,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Provider’s risk' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('a shared link with ?index=team opens the team view', async () => {
    const fake = bff();
    renderApp('/?index=team');
    expect(
      await screen.findByRole('button', { name: 'Team index: Logistics view' }),
    ).toHaveAttribute('aria-pressed', 'true');
    expect(fake.calls('/api/countries').every((u) => u.searchParams.get('index') === 'team')).toBe(
      true,
    );
  });
});
