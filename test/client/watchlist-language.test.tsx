import { QueryClient } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { Providers } from '../../src/client/app/providers';
import { WatchlistForm } from '../../src/client/features/watchlists/components/watchlist-form';
import type { Watchlist, WatchlistInput } from '../../src/shared/alerts-api';
import { installFakeBff } from './fake-bff';

/*
 * A watchlist's language (issue 34): the form offers the four languages, each named in its own
 * words and marked with its `lang`, shows the saved one, and sends the chosen one.
 */

const list = (over: Partial<Watchlist> = {}): Watchlist => ({
  id: '3',
  name: 'Sahel',
  countries: ['MLI'],
  rules: [{ kind: 'active_change', min_abs_delta: 10 }],
  scope: 'team',
  owner: null,
  webhook: null,
  email: 'desk@example.com',
  language: 'fr',
  version: 1,
  created_at: '2026-03-01T08:00:00.000Z',
  updated_at: '2026-03-01T08:00:00.000Z',
  unread_alerts: 0,
  ...over,
});

function renderForm(initial: Watchlist, onSave: (input: WatchlistInput) => Promise<unknown>) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const element = (
    <WatchlistForm
      initial={initial}
      choices={{ countries: undefined, loadError: null, figures: null }}
      withFormat
      submitLabel="Save"
      onSave={onSave}
    />
  );
  render(
    <Providers queryClient={queryClient}>
      <RouterProvider router={createMemoryRouter([{ path: '/', element }])} />
    </Providers>,
  );
}

describe("a watchlist's language", () => {
  it('offers each language in its own words, shows the saved one and sends the chosen one', async () => {
    installFakeBff({});
    const sent: WatchlistInput[] = [];
    renderForm(list(), (input) => {
      sent.push(input);
      return Promise.resolve();
    });
    const picker = screen.getByRole('combobox', { name: 'Language of e-mails and webhooks' });
    expect(picker).toHaveValue('fr');
    const options = within(picker).getAllByRole('option');
    expect(options.map((o) => [(o as HTMLOptionElement).value, o.textContent, o.lang])).toEqual([
      ['en', 'English', 'en'],
      ['fr', 'Français', 'fr'],
      ['es', 'Español', 'es'],
      ['ar', 'العربية', 'ar'],
    ]);
    await userEvent.selectOptions(picker, 'ar');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ name: 'Sahel', language: 'ar' });
  });
});
