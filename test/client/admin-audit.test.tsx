import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { statusBody, shellRoutes } from './fixtures/data';
import { withHistory } from './fixtures/sites';
import { installFakeBff } from './fake-bff';
import { renderApp } from './render-app';

/*
 * The admin's audit page (issue 21): its filters live in the URL and drive the question to
 * /api/audit and the CSV link; the header links to it for admins only (by /api/me).
 */
const me = (role: 'viewer' | 'editor' | 'admin') => ({
  body: {
    ok: true,
    name: `${role} person`,
    email: null,
    role,
    via: 'oidc',
    sign_out: '/auth/logout',
  },
});
const entry = {
  id: '7',
  at: '2026-11-20T10:00:00.000Z',
  who: {
    name: 'Eddie Editor',
    email: 'eddie@example.com',
    subject: 'oidc:eddie',
    via: 'oidc',
    role: 'editor',
  },
  address: '10.0.0.5',
  action: 'PUT /api/watchlists/:id',
  object: '/api/watchlists/3',
  status: 200,
  detail: null,
  before: { watchlist: { name: 'Sahel' } },
  after: { watchlist: { name: 'Sahel belt' } },
};
const sessions = {
  body: {
    ok: true,
    sessions: [
      {
        id: 'h'.repeat(43),
        name: 'Vera Viewer',
        email: 'vera@example.com',
        role: 'viewer',
        via: 'oidc',
        address: '10.0.0.9',
        created_at: '2026-11-20T08:00:00.000Z',
        last_seen_at: '2026-11-20T09:00:00.000Z',
        expires_at: '2026-11-27T08:00:00.000Z',
      },
    ],
  },
};

describe('/admin/audit', () => {
  it('asks for the filters in the URL, shows who changed what, and links the same CSV', async () => {
    const bff = installFakeBff({
      ...shellRoutes(),
      '/api/status': { body: statusBody(withHistory) },
      '/api/me': me('admin'),
      '/api/audit': { body: { ok: true, entries: [entry], next_cursor: null } },
      '/api/sessions': sessions,
    });
    renderApp('/admin/audit?who=eddie&since=2026-11-01');
    await screen.findByText('Eddie Editor changed a watchlist');
    expect(bff.calls('/api/audit').map((url) => url.search)).toEqual([
      '?who=eddie&since=2026-11-01',
    ]);
    expect(screen.getByRole('link', { name: 'Download as a spreadsheet (CSV)' })).toHaveAttribute(
      'href',
      '/api/spreadsheet/audit.csv?who=eddie&since=2026-11-01',
    );
    // The object's column (and its label on a phone's card) is "Object"; the hint on how to
    // filter by it belongs to the filter field only.
    const object = screen.getByText('/api/watchlists/3');
    expect(object).toHaveAttribute('data-label', 'Object');
    expect(screen.getByRole('columnheader', { name: 'Object' })).toBeInTheDocument();
    expect(screen.getByLabelText('Object (exact, or ending in *)')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Audit log' })).toBeInTheDocument();
    // The other admin page, feeds and embeds, is one link away (the header has no room for it).
    const adminPages = screen.getByRole('navigation', { name: 'Admin pages' });
    expect(within(adminPages).getByRole('link', { name: 'Feeds and embeds' })).toHaveAttribute(
      'href',
      '/admin/reach',
    );
    expect(
      within(adminPages).getByRole('link', { name: 'Audit log and sessions' }),
    ).toHaveAttribute('aria-current', 'page');

    // A new filter goes into the URL, and from there into the question.
    await userEvent.selectOptions(screen.getByLabelText(/^Action/), 'signed in');
    await userEvent.click(screen.getByRole('button', { name: 'Show' }));
    await waitFor(() =>
      expect(bff.calls('/api/audit').map((url) => url.search)).toContain(
        '?who=eddie&action=sign-in&since=2026-11-01',
      ),
    );

    // Sessions: who, from where, and a sign-out that sends the handle.
    const vera = (await screen.findByText('Vera Viewer (vera@example.com)')).closest('tr');
    expect(within(vera as HTMLElement).getByText('10.0.0.9')).toBeInTheDocument();
  });

  it('says each entry in plain words and filters by person, action and dates in the URL (issue 33, point 13)', async () => {
    const imported = {
      ...entry,
      id: '8',
      who: { ...entry.who, name: 'Alice' },
      action: 'POST /api/sites/import',
      object: '/api/sites/import',
      before: null,
      after: { dry_run: false, rows: 40, created: Array(30).fill({}), updated: Array(10).fill({}) },
    };
    const bff = installFakeBff({
      ...shellRoutes(),
      '/api/status': { body: statusBody(withHistory) },
      '/api/me': me('admin'),
      '/api/audit': { body: { ok: true, entries: [imported, entry], next_cursor: null } },
      '/api/sessions': sessions,
    });
    renderApp('/admin/audit');
    const row = (await screen.findByRole('rowheader', { name: 'Alice imported 40 sites' })).closest(
      'tr',
    );
    expect(within(row as HTMLElement).queryByText(/POST \/api/)).toBeNull();

    await userEvent.type(screen.getByLabelText(/^Person/), 'alice');
    await userEvent.selectOptions(screen.getByLabelText(/^Action/), 'imported sites');
    await userEvent.type(screen.getByLabelText(/^From/), '2026-11-01');
    await userEvent.type(screen.getByLabelText(/^Until/), '2026-11-20');
    await userEvent.click(screen.getByRole('button', { name: 'Show' }));
    const wanted = `?who=alice&action=${encodeURIComponent('POST /api/sites/import').replace(/%20/g, '+')}&since=2026-11-01&until=2026-11-20`;
    await waitFor(() => expect(bff.calls('/api/audit').map((url) => url.search)).toContain(wanted));
    expect(screen.getByRole('link', { name: 'Download as a spreadsheet (CSV)' })).toHaveAttribute(
      'href',
      `/api/spreadsheet/audit.csv${wanted}`,
    );
    // The form is remade from the URL: the chosen action is still chosen.
    expect(screen.getByLabelText(/^Action/)).toHaveValue('POST /api/sites/import');
  });

  it('is not linked for a viewer or an editor, and the page says it is for admins', async () => {
    for (const role of ['viewer', 'editor'] as const) {
      const bff = installFakeBff({
        ...shellRoutes(),
        '/api/status': { body: statusBody(withHistory) },
        '/api/me': me(role),
      });
      const view = renderApp('/admin/audit');
      await screen.findByText(/This page is for admins/);
      await screen.findAllByText(`${role} person`);
      expect(screen.queryByRole('link', { name: 'Audit log' })).toBeNull();
      expect(bff.calls('/api/audit')).toEqual([]);
      view.unmount();
    }
  });
});
