import { QueryClient } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Providers } from '../../src/client/app/providers';
import { WatchlistForm } from '../../src/client/features/watchlists/components/watchlist-form';
import type { Watchlist } from '../../src/shared/alerts-api';
import type { BacktestResponse } from '../../src/shared/backtest-api';
import { installFakeBff, type Answer } from './fake-bff';

const PATH = '/api/watchlists/backtest';

const list: Watchlist = {
  id: 'w1',
  name: 'East',
  countries: ['UKR', 'SDN'],
  rules: [{ kind: 'active_change', min_abs_delta: 10 }, { kind: 'breaking_event' }],
  scope: 'team',
  owner: null,
  webhook: null,
  email: null,
  version: 1,
  created_at: '2025-01-01T00:00:00.000Z',
  updated_at: '2025-01-01T00:00:00.000Z',
  unread_alerts: 0,
};

/** A history tried by hand: Ukraine fired three times, once in the last 90 days; Sudan never. */
function backtestBody(rule = 'active_change:10'): BacktestResponse {
  return {
    ok: true,
    from: '2024-11-01T03:00:00.000Z',
    to: '2025-06-02T10:00:00.000Z',
    batches: 420,
    rules: [rule, 'breaking_event'],
    countries: [
      {
        iso: 'UKR',
        batches: 420,
        suggested_min_abs_delta: 7.5,
        rules: [
          {
            rule,
            count: 3,
            last_90_days: 1,
            batches: [
              '2025-05-20T03:00:00.000Z',
              '2025-01-12T15:00:00.000Z',
              '2024-12-02T03:00:00.000Z',
            ],
          },
          { rule: 'breaking_event', count: 0, last_90_days: 0, batches: [] },
        ],
      },
      {
        iso: 'SDN',
        batches: 1,
        suggested_min_abs_delta: null,
        rules: [
          { rule, count: 0, last_90_days: 0, batches: [] },
          { rule: 'breaking_event', count: 0, last_90_days: 0, batches: [] },
        ],
      },
    ],
    last_90_days: {
      since: '2025-03-04T10:00:00.000Z',
      count: 1,
      alerts: [
        {
          as_of: '2025-05-20T03:00:00.000Z',
          iso: 'UKR',
          rule,
          message: 'Active score moved by +12.0',
        },
      ],
    },
  };
}

function renderForm() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([
    {
      path: '/',
      element: (
        <WatchlistForm
          initial={list}
          choices={{ countries: undefined, loadError: null, figures: null }}
          withFormat={false}
          submitLabel="Save"
          onSave={() => Promise.resolve()}
        />
      ),
    },
  ]);
  render(
    <Providers queryClient={queryClient}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return screen.getByRole('region', { name: 'Try on history' });
}

afterEach(() => vi.restoreAllMocks());

// The whole form renders on each keystroke: the limit is no assertion of speed.
describe('Try on history in the watchlist form', () => {
  it("tries the form's countries and rules and shows counts, dates, the last 90 days and the suggestion", async () => {
    const bodies: unknown[] = [];
    const bff = installFakeBff({
      [PATH]: (_url, init): Answer => {
        bodies.push(JSON.parse(String(init?.body)));
        return { body: backtestBody() };
      },
    });
    const section = renderForm();
    await userEvent.click(within(section).getByRole('button', { name: 'Try on history' }));
    const table = await within(section).findByRole('table');
    expect(bff.calls(PATH)).toHaveLength(1);
    expect(bodies[0]).toEqual({ countries: ['UKR', 'SDN'], rules: list.rules });
    expect(within(section).getByText(/^420 batches from/)).toHaveTextContent(
      '420 batches from 1 Nov 2024, 03:00 UTC to 2 Jun 2025, 10:00 UTC.',
    );
    const rows = within(table).getAllByRole('row');
    expect(rows.map((r) => r.textContent)).toEqual([
      'CountryActive change ≥ 10Breaking eventSuggested active change',
      'Ukraine (420 batches)3 times (1 in the last 90 days)' +
        '20 May 2025, 03:00 UTC12 Jan 2025, 15:00 UTC2 Dec 2024, 03:00 UTC' +
        'Never≥ 7.5 (chosen: 10)',
      'Sudan (1 batch)NeverNeverToo little history (chosen: 10)',
    ]);
    // The batches it would have fired in, as dates, under the count.
    const dates = within(rows[1] as HTMLElement).getAllByRole('listitem', { hidden: true });
    expect(dates.map((d) => d.textContent)).toEqual([
      '20 May 2025, 03:00 UTC',
      '12 Jan 2025, 15:00 UTC',
      '2 Dec 2024, 03:00 UTC',
    ]);
    expect(within(section).getByText(/^1 alert since/)).toHaveTextContent(
      '1 alert since 4 Mar 2025, 10:00 UTC:',
    );
    expect(within(section).getByText(/Active score moved by \+12\.0/)).toHaveTextContent(
      '20 May 2025, 03:00 UTC · Ukraine · Active change ≥ 10: Active score moved by +12.0',
    );
  });

  it('a rule changed after trying is marked, and the next try sends the rule as edited', async () => {
    const bodies: { rules: unknown[] }[] = [];
    installFakeBff({
      [PATH]: (_url, init): Answer => {
        bodies.push(JSON.parse(String(init?.body)) as { rules: unknown[] });
        return {
          body: backtestBody(bodies.length === 1 ? 'active_change:10' : 'active_change:7.5'),
        };
      },
    });
    const section = renderForm();
    const button = within(section).getByRole('button', { name: 'Try on history' });
    await userEvent.click(button);
    await within(section).findByRole('table');
    expect(within(section).queryByText(/have changed since/)).not.toBeInTheDocument();
    const threshold = screen.getByRole('spinbutton', { name: 'Change of at least (points)' });
    await userEvent.clear(threshold);
    await userEvent.type(threshold, '7.5');
    expect(within(section).getByText(/have changed since this was tried/)).toBeVisible();
    await userEvent.click(button);
    expect(
      await within(section).findByRole('columnheader', { name: 'Active change ≥ 7.5' }),
    ).toBeVisible();
    expect(bodies[1]?.rules[0]).toEqual({ kind: 'active_change', min_abs_delta: 7.5 });
    expect(within(section).queryByText(/have changed since/)).not.toBeInTheDocument();
  });

  it('says where the history crosses a method change and what was held there (issue 31)', async () => {
    installFakeBff({
      [PATH]: {
        method: 'POST',
        body: {
          ...backtestBody(),
          method_changes: [
            {
              as_of: '2025-03-01T03:00:00.000Z',
              from: 'ggri 3.2',
              to: 'ggri-m 4.0',
              comparable: false,
              held_firings: 2,
            },
          ],
        },
      },
    });
    const section = renderForm();
    await userEvent.click(within(section).getByRole('button', { name: 'Try on history' }));
    expect(await within(section).findByRole('note')).toHaveTextContent(
      'The provider’s method changed from ggri 3.2 to ggri-m 4.0 on 1 Mar 2025, 03:00 UTC: scores are not comparable across it. As the live alerts do, the rules comparing two batches were not counted there (2 firings held)',
    );
  });

  it('a rule with a problem is not tried', async () => {
    const bff = installFakeBff({ [PATH]: { body: backtestBody() } });
    const section = renderForm();
    await userEvent.clear(screen.getByRole('spinbutton', { name: 'Change of at least (points)' }));
    await userEvent.click(within(section).getByRole('button', { name: 'Try on history' }));
    expect(
      within(section).getByText('Fix the rules marked above first, then try them.'),
    ).toBeVisible();
    expect(bff.calls(PATH)).toHaveLength(0);
  });

  it.each([
    [
      429,
      'This browser has asked the history store too often in the last minute. Try again within a minute.',
    ],
    [503, 'The history store is busy answering other questions right now. Try again in a moment.'],
    [400, 'The rules could not be tried on history: at most 20 rules.'],
  ])('a %i from the server is said in plain words', async (status, words) => {
    installFakeBff({
      [PATH]: {
        method: 'POST',
        status,
        body: { ok: false, error: status === 400 ? 'at most 20 rules' : 'store query limit' },
      },
    });
    const section = renderForm();
    await userEvent.click(within(section).getByRole('button', { name: 'Try on history' }));
    expect(await within(section).findByRole('alert')).toHaveTextContent(words);
    expect(within(section).queryByRole('table')).not.toBeInTheDocument();
  });
});
