import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { countriesBody, statusBody, shellRoutes } from './fixtures/data';
import { exposureBody, ourSites, sitesBody, withHistory } from './fixtures/sites';
import { historyRoutes } from './fixtures/history';
import { installFakeBff, type Answer } from './fake-bff';
import { renderApp } from './render-app';

/*
 * "Where site alerts go" on /exposure: the "Our sites" list's webhook and e-mail. An editor sets
 * them (If-Match, the server's refusals next to their fields, the new webhook's secret once); a
 * viewer sees them and no form.
 */
const me = (role: 'viewer' | 'editor') => ({
  body: { ok: true, name: 'Ed', email: null, role, via: 'oidc', sign_out: null },
});

function deliveryBff(role: 'viewer' | 'editor', onPut: (init: RequestInit) => Answer) {
  return installFakeBff({
    ...shellRoutes(),
    ...historyRoutes(),
    '/api/status': { body: statusBody(withHistory) },
    '/api/me': me(role),
    '/api/countries': { body: countriesBody() },
    '/api/exposure': { body: exposureBody() },
    '/api/sites': { body: sitesBody() },
    '/api/sites/alert-delivery': (_url, init) =>
      init?.method === 'PUT'
        ? onPut(init)
        : { body: { ok: true, watchlist: ourSites({ email: 'risk@example.com' }) } },
  });
}

/** Every PUT's If-Match and JSON body. */
function puts() {
  return vi
    .mocked(fetch)
    .mock.calls.filter(([, init]) => init?.method === 'PUT')
    .map(([, init]) => ({
      ifMatch: (init?.headers as Record<string, string>)['If-Match'],
      body: JSON.parse(String(init?.body)) as unknown,
    }));
}

async function panel() {
  renderApp('/exposure');
  return screen.findByRole('region', { name: 'Where site alerts go' });
}

describe('where site alerts go, on /exposure', () => {
  it('an editor sets the webhook and e-mail with If-Match and sees the secret once', async () => {
    deliveryBff('editor', () => ({
      body: {
        ok: true,
        watchlist: ourSites({
          version: 5,
          email: 'ops@example.com',
          webhook: {
            url: 'https://hooks.example.com/sites',
            format: 'standard',
            paused_at: null,
            paused_reason: null,
          },
        }),
        webhook_secret: 'whsec_c2VjcmV0',
      },
    }));
    const region = await panel();
    const email = await within(region).findByLabelText('E-mail address');
    expect(email).toHaveValue('risk@example.com');
    fireEvent.change(within(region).getByLabelText('Webhook URL'), {
      target: { value: 'https://hooks.example.com/sites' },
    });
    fireEvent.change(email, { target: { value: 'ops@example.com' } });
    await userEvent.click(within(region).getByRole('button', { name: 'Save' }));
    expect(await within(region).findByText('whsec_c2VjcmV0')).toBeVisible();
    expect(within(region).getByRole('status')).toHaveTextContent('Saved.');
    expect(puts()).toEqual([
      {
        ifMatch: '"4"',
        body: {
          webhook_url: 'https://hooks.example.com/sites',
          webhook_format: 'standard',
          email: 'ops@example.com',
        },
      },
    ]);
  });

  it("shows the server's refusal next to the field it names, and focuses it", async () => {
    deliveryBff('editor', (init) => {
      const body = JSON.parse(String(init.body)) as { email: string | null };
      return body.email === 'nope'
        ? { status: 400, body: { ok: false, error: 'email: email must be an e-mail address' } }
        : { status: 400, body: { ok: false, error: 'webhook_url must be an https:// URL' } };
    });
    const region = await panel();
    const email = await within(region).findByLabelText('E-mail address');
    fireEvent.change(email, { target: { value: 'nope' } });
    await userEvent.click(within(region).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(email).toHaveAccessibleDescription('The e-mail address must be an e-mail address'),
    );
    expect(email).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(email).toHaveFocus());
    const url = within(region).getByLabelText('Webhook URL');
    expect(url).not.toHaveAttribute('aria-invalid');

    fireEvent.change(email, { target: { value: 'ops@example.com' } });
    fireEvent.change(url, { target: { value: 'http://hooks.example.com' } });
    await userEvent.click(within(region).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(url).toHaveAccessibleDescription('The webhook URL must be an https:// URL'),
    );
    expect(email).not.toHaveAttribute('aria-invalid');
  });

  it('a viewer sees where they go, and no form', async () => {
    const bff = deliveryBff('viewer', () => ({ status: 403, body: { ok: false, error: 'no' } }));
    const region = await panel();
    await waitFor(() => expect(region).toHaveTextContent('risk@example.com'));
    await waitFor(() => expect(bff.calls('/api/me').length).toBeGreaterThan(0));
    expect(within(region).queryByRole('textbox')).toBeNull();
    expect(within(region).queryByRole('button', { name: 'Save' })).toBeNull();
    expect(region).toHaveTextContent('WebhookNone');
  });
});
