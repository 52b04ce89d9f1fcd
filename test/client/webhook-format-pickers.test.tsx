import { QueryClient } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { Providers } from '../../src/client/app/providers';
import { SiteAlertDeliveryPanel } from '../../src/client/features/sites/components/site-alert-delivery';
import { WatchlistForm } from '../../src/client/features/watchlists/components/watchlist-form';
import { WEBHOOK_FORMAT_OPTIONS, type Watchlist } from '../../src/shared/alerts-api';
import { installFakeBff } from './fake-bff';

/*
 * Every form that sets a webhook offers exactly the shared list of formats (issue 35, item 8):
 * the same ids, words and order, and the chosen one's description under the picker. A form that
 * wrote its own <option>s would differ in a word today and miss the next format tomorrow.
 */

const list = (over: Partial<Watchlist> = {}): Watchlist => ({
  id: '3',
  name: 'Sahel',
  countries: ['MLI'],
  rules: [{ kind: 'active_change', min_abs_delta: 10 }],
  scope: 'team',
  owner: null,
  webhook: {
    url: 'https://hooks.example.com/x',
    format: 'slack',
    paused_at: null,
    paused_reason: null,
  },
  email: null,
  version: 1,
  created_at: '2026-03-01T08:00:00.000Z',
  updated_at: '2026-03-01T08:00:00.000Z',
  unread_alerts: 0,
  ...over,
});

function renderAlone(element: React.ReactNode) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: '/', element }]);
  render(
    <Providers queryClient={queryClient}>
      <RouterProvider router={router} />
    </Providers>,
  );
}

const shared = WEBHOOK_FORMAT_OPTIONS.map((f) => ({ value: f.id, label: f.label }));

function offered(picker: HTMLElement) {
  return within(picker)
    .getAllByRole('option')
    .map((option) => ({
      value: (option as HTMLOptionElement).value,
      label: option.textContent,
    }));
}

/** Both pickers say what the chosen format is, and follow the choice. */
async function describesChoice(picker: HTMLElement) {
  const slack = WEBHOOK_FORMAT_OPTIONS.find((f) => f.id === 'slack');
  const teams = WEBHOOK_FORMAT_OPTIONS.find((f) => f.id === 'teams');
  expect(picker).toHaveValue('slack');
  expect(picker).toHaveAccessibleDescription(slack?.description);
  await userEvent.selectOptions(picker, 'teams');
  expect(picker).toHaveAccessibleDescription(teams?.description);
}

describe('webhook format pickers', { timeout: 20_000 }, () => {
  it("a watchlist's settings offer exactly the shared formats", async () => {
    installFakeBff({});
    renderAlone(
      <WatchlistForm
        initial={list()}
        choices={{ countries: undefined, loadError: null, figures: null }}
        withFormat
        submitLabel="Save"
        onSave={() => Promise.resolve()}
      />,
    );
    const picker = screen.getByRole('combobox', { name: 'Webhook format' });
    expect(offered(picker)).toEqual(shared);
    await describesChoice(picker);
  });

  it('"Where site alerts go" offers exactly the shared formats', async () => {
    installFakeBff({
      '/api/sites/alert-delivery': { body: { ok: true, watchlist: list({ name: 'Our sites' }) } },
    });
    renderAlone(<SiteAlertDeliveryPanel editor />);
    const picker = await screen.findByRole('combobox', { name: 'Webhook format' });
    expect(offered(picker)).toEqual(shared);
    await describesChoice(picker);
  });

  it("a viewer of site alerts' delivery reads the shared word for the format", async () => {
    installFakeBff({
      '/api/sites/alert-delivery': { body: { ok: true, watchlist: list({ name: 'Our sites' }) } },
    });
    renderAlone(<SiteAlertDeliveryPanel editor={false} />);
    const slack = WEBHOOK_FORMAT_OPTIONS.find((f) => f.id === 'slack');
    // The address is its own element (translate="no": it is ours, not words to translate).
    const shown = `https://hooks.example.com/x (${slack?.label ?? ''})`;
    expect(
      await screen.findByText(
        (_, element) => element?.tagName === 'DD' && element.textContent === shown,
      ),
    ).toBeVisible();
  });

  it('no client file writes a webhook format picker of its own', () => {
    const root = join(process.cwd(), 'src/client');
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.tsx?$/.test(file))
      .map((file) => join(root, file));
    const pickers = files.filter((file) =>
      /name="webhook_format"|<option value="(standard|slack|teams)"/.test(
        readFileSync(file, 'utf8'),
      ),
    );
    expect(pickers.map((file) => relative(process.cwd(), file))).toEqual([
      'src/client/components/webhook-format-field.tsx',
    ]);
  });
});
