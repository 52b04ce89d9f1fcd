import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { statusBody, shellRoutes } from './fixtures/data';
import { withHistory } from './fixtures/sites';
import { installFakeBff, type Answer } from './fake-bff';
import { renderApp } from './render-app';

/*
 * The admin's feeds and embeds page (issue 34): makes a feed token (its secret shown once) and an
 * embed (its iframe shown once), lists both with their use, and revokes.
 */
const admin = {
  body: { ok: true, name: 'Ada', email: null, role: 'admin', via: 'oidc', sign_out: null },
};
const listed = {
  id: '3',
  name: 'Finance sheet',
  created_at: '2026-11-20T08:00:00.000Z',
  created_by: 'Ada',
  expires_at: '2027-02-18T08:00:00.000Z',
  last_used_at: '2026-11-21T07:00:00.000Z',
  uses: 14,
};
const token = { ...listed, feeds: ['countries', 'alerts'] };
const embed = {
  ...listed,
  id: '5',
  name: 'Intranet map',
  view: 'map',
  subject: null,
  origin: 'https://intranet.example.com',
  uses: 230,
};

describe('/admin/reach', () => {
  it('makes a feed token, shows its secret once, lists and revokes', async () => {
    const posted: unknown[] = [];
    const deleted: string[] = [];
    const bff = installFakeBff({
      ...shellRoutes(),
      '/api/status': { body: statusBody(withHistory) },
      '/api/me': admin,
      '/api/feed-tokens': (_url, init): Answer => {
        if (init?.method === 'POST') {
          posted.push(JSON.parse(String(init.body)));
          return { status: 201, body: { ok: true, token, secret: 'grf_' + 'x'.repeat(43) } };
        }
        return { body: { ok: true, tokens: [token] } };
      },
      '/api/feed-tokens/3': (url, init): Answer => {
        deleted.push(`${init?.method} ${url.pathname}`);
        return { body: { ok: true } };
      },
      '/api/embeds': { body: { ok: true, embeds: [embed] } },
    });
    renderApp('/admin/reach');
    const tokens = await screen.findByRole('region', { name: 'Feed tokens' });
    const row = await within(tokens).findByRole('row', { name: /Finance sheet/ });
    expect(row).toHaveTextContent('countries, alerts');
    expect(row).toHaveTextContent('14');
    await userEvent.type(within(tokens).getByLabelText('Name'), 'Power BI');
    await userEvent.click(within(tokens).getByLabelText('alerts'));
    await userEvent.click(within(tokens).getByRole('button', { name: 'Make feed token' }));
    expect(await within(tokens).findByRole('status')).toHaveTextContent('grf_xxxx');
    expect(posted).toEqual([
      { name: 'Power BI', feeds: ['countries', 'alerts'], expires_in_days: 90 },
    ]);
    await userEvent.click(within(tokens).getByRole('button', { name: 'Revoke: Finance sheet' }));
    await waitFor(() => expect(deleted).toEqual(['DELETE /api/feed-tokens/3']));
    const embeds = screen.getByRole('region', { name: 'Embeds' });
    expect(within(embeds).getByRole('row', { name: /Intranet map/ })).toHaveTextContent('230');
    expect(bff.calls('/api/embeds').length).toBeGreaterThan(0);
  });
});
