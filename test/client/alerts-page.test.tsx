import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { statusBody, shellRoutes } from './fixtures/data';
import { installFakeBff } from './fake-bff';
import { renderApp } from './render-app';

/*
 * /alerts for a signed-in person: the inbox, then their own delivery settings under it. Drawn
 * before the inbox rows arrived above them, the settings moved down the page when the rows came
 * (a layout shift the browser tests saw in proxy mode).
 */
describe('the alerts page', () => {
  it('draws the delivery settings under the inbox only once the inbox has answered', async () => {
    const bff = installFakeBff({
      ...shellRoutes(),
      '/api/status': { body: statusBody() },
      '/api/me': {
        body: {
          ok: true,
          name: 'Ed',
          email: 'ed@example.com',
          role: 'viewer',
          via: 'proxy',
          sign_out: null,
        },
      },
      '/api/me/settings': {
        body: {
          ok: true,
          settings: {
            email_enabled: true,
            digest_hour: null,
            time_zone: 'Europe/Berlin',
            quiet_hours: null,
            email: 'ed@example.com',
            version: 2,
          },
        },
      },
      '/api/watchlists': { body: { ok: true, watchlists: [] } },
      '/api/alerts/unread-count': { body: { ok: true, unread: 0 } },
      '/api/alerts': { body: { ok: true, alerts: [], unread: 0, next_cursor: null } },
    });
    // The inbox's answer waits until the test lets it through.
    const inbox = bff.hold('/api/alerts');

    renderApp('/alerts');
    await screen.findByText('Loading alerts');
    // Who is signed in is drawn: the settings panel depends on the same answer (same render).
    await screen.findByText('Ed', { selector: '.user-name' });
    expect(screen.queryByRole('heading', { name: 'Your delivery settings' })).toBeNull();

    inbox.release();
    const region = await screen.findByRole('region', { name: 'Inbox' });
    const settings = await screen.findByRole('form', { name: 'Your delivery settings' });
    expect(
      region.compareDocumentPosition(settings) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
  });
});
