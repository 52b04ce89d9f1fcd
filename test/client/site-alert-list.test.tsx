import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { WatchlistRulesSummary } from '../../src/client/features/watchlists/components/watchlist-rules-summary';
import { countriesBody, statusBody, shellRoutes } from './fixtures/data';
import { exposureBody, ourSites, sitesBody, withHistory } from './fixtures/sites';
import { historyRoutes } from './fixtures/history';
import { installFakeBff } from './fake-bff';
import { renderApp } from './render-app';

/*
 * Issue 33, point 12: the "Our sites" list's page says what the site rule sends instead of
 * "this list never alerts"; with no sites yet, /exposure says the list comes with the first one.
 */
const ourSitesList = ourSites({ site_alerts: true });

describe('the "Our sites" list', () => {
  it('says what it sends, not that it never alerts', () => {
    render(
      <MemoryRouter>
        <WatchlistRulesSummary list={ourSitesList} />
      </MemoryRouter>,
    );
    const rules = screen.getByRole('region', { name: 'Alert rules' });
    expect(rules).toHaveTextContent(/Site alerts: each site with alerts on sends one here/);
    expect(rules).not.toHaveTextContent(/never alerts/);
    expect(within(rules).getByRole('link', { name: 'Exposure' })).toHaveAttribute(
      'href',
      '/exposure',
    );
  });

  it('a list without rules still says it never alerts', () => {
    render(
      <MemoryRouter>
        <WatchlistRulesSummary list={{ ...ourSitesList, name: 'Sahel', site_alerts: false }} />
      </MemoryRouter>,
    );
    expect(screen.getByRole('region', { name: 'Alert rules' })).toHaveTextContent(/never alerts/);
  });

  it('on /exposure with no sites yet, says where site alerts go comes with the first site', async () => {
    installFakeBff({
      ...shellRoutes(),
      ...historyRoutes(),
      '/api/status': { body: statusBody(withHistory) },
      '/api/me': {
        body: { ok: true, name: 'Ed', email: null, role: 'editor', via: 'oidc', sign_out: null },
      },
      '/api/countries': { body: countriesBody() },
      '/api/exposure': { body: exposureBody() },
      '/api/sites': { body: sitesBody() },
      '/api/sites/alert-delivery': {
        status: 404,
        body: { ok: false, error: 'There are no sites yet' },
      },
    });
    renderApp('/exposure');
    const panel = await screen.findByRole('region', { name: 'Where site alerts go' });
    expect(
      await within(panel).findByText(/Once there is a site \(add or import one\)/),
    ).toBeInTheDocument();
    expect(within(panel).queryByRole('alert')).toBeNull();
  });
});
