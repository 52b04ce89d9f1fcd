import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { eventsResponseSchema } from '../../src/shared/history-api';
import { country, countryBody, statusBody, shellRoutes } from './fixtures/data';
import { archivedEvent, historyRoutes } from './fixtures/history';
import { installFakeBff } from './fake-bff';
import { ourSites } from './fixtures/sites';
import { renderApp } from './render-app';

// Issue 19, point 6: event search across countries, and a country's archive that does not
// repeat its live feed.

afterEach(() => vi.restoreAllMocks());

const events = (list: ReturnType<typeof archivedEvent>[], next: string | null = null) => ({
  body: eventsResponseSchema.parse({ ok: true, events: list, next_cursor: next }),
});

describe('the Events page', () => {
  it('searches every country by words, country, days and breaking; the search is a URL', async () => {
    const bff = installFakeBff({
      ...shellRoutes(),
      '/api/status': { body: statusBody() },
      ...historyRoutes(),
      '/api/watchlists': { body: { ok: true, watchlists: [] } },
      '/api/events': (url) =>
        url.searchParams.has('q')
          ? events([
              archivedEvent({
                iso: 'MLI',
                countries: ['MLI', 'BFA'],
                headline: 'New sanctions on Mali',
                breaking: true,
              }),
              archivedEvent({ iso: 'UKR', headline: 'Sanctions package agreed' }),
            ])
          : events([archivedEvent({ iso: 'FRA', headline: 'Strike in Paris' })], 'older-page'),
    });
    const { router } = renderApp('/events');
    expect(await screen.findByRole('heading', { level: 1, name: 'Events' })).toBeInTheDocument();
    expect(await screen.findByText('Strike in Paris')).toBeInTheDocument();
    expect(screen.getByText('1 event shown; older ones below.')).toBeInTheDocument();
    expect(bff.calls('/api/events')[0]?.search).toBe('');

    await userEvent.type(
      screen.getByRole('searchbox', { name: 'Headline or source contains' }),
      'sanctions',
    );
    const picker = screen.getByRole('combobox', { name: 'Countries' });
    await userEvent.type(picker, 'Mali{Enter}');
    await userEvent.type(picker, 'Burkina Faso{Enter}');
    await userEvent.type(screen.getByLabelText('From (UTC)'), '2025-05-01');
    await userEvent.type(screen.getByLabelText('To (UTC)'), '2025-06-02');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Breaking only' }));
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));

    expect(router.state.location.search).toBe(
      '?q=sanctions&iso=MLI%2CBFA&from=2025-05-01&to=2025-06-02&breaking=1',
    );
    await waitFor(() =>
      expect(bff.calls('/api/events').at(-1)?.search).toBe(
        '?iso=MLI%2CBFA&q=sanctions&from=2025-05-01T00%3A00%3A00.000Z&to=2025-06-02T23%3A59%3A59.999Z&breaking=true',
      ),
    );
    const list = await screen.findByRole('list', { name: 'Events found' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    // Each result names its countries as links; the event naming two is listed once.
    expect(within(items[0]!).getByRole('link', { name: 'Mali' })).toHaveAttribute(
      'href',
      '/country/MLI',
    );
    expect(within(items[0]!).getByRole('link', { name: 'Burkina Faso' })).toHaveAttribute(
      'href',
      '/country/BFA',
    );
    expect(screen.getByRole('link', { name: 'Spreadsheet (CSV) of this search' })).toHaveAttribute(
      'href',
      '/api/spreadsheet/events.csv?iso=MLI%2CBFA&q=sanctions&from=2025-05-01T00%3A00%3A00.000Z&to=2025-06-02T23%3A59%3A59.999Z&breaking=true',
    );
    expect(within(items[1]!).getByRole('link', { name: 'Ukraine' })).toHaveAttribute(
      'href',
      '/country/UKR',
    );
    expect(
      screen.getByText(
        '2 events breaking matching “sanctions” in Mali, Burkina Faso from 2025-05-01 to 2025-06-02 shown.',
      ),
    ).toBeInTheDocument();
  });

  it('a shared link opens the same search; a "to" before "from" is refused at the field', async () => {
    const bff = installFakeBff({
      ...shellRoutes(),
      '/api/status': { body: statusBody() },
      ...historyRoutes(),
      '/api/watchlists': { body: { ok: true, watchlists: [] } },
      '/api/events': events([]),
    });
    renderApp('/events?q=earthquake&iso=NPL&from=2025-01-01&breaking=1&to=nonsense');
    expect(
      await screen.findByText(
        /^No recorded event breaking matching “earthquake” in Nepal from 2025-01-01\.$/,
      ),
    ).toBeInTheDocument();
    // A value the URL cannot mean (to=nonsense) is dropped, not sent.
    expect(bff.calls('/api/events')[0]?.search).toBe(
      '?iso=NPL&q=earthquake&from=2025-01-01T00%3A00%3A00.000Z&breaking=true',
    );
    await userEvent.type(screen.getByLabelText('To (UTC)'), '2024-12-31');
    const to = screen.getByLabelText('To (UTC)');
    expect(to).toHaveAttribute('aria-invalid', 'true');
    expect(to).toHaveAccessibleDescription('“To” is before “From”.');
    const asked = bff.calls('/api/events').length;
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(bff.calls('/api/events')).toHaveLength(asked);
  });
});

describe('the Events page by watchlist (issue 33, point 5)', () => {
  it('takes a watchlist: the URL and the question name it, the picked countries cleared', async () => {
    const bff = installFakeBff({
      ...shellRoutes(),
      '/api/status': { body: statusBody() },
      ...historyRoutes(),
      '/api/watchlists': { body: { ok: true, watchlists: [ourSites({ id: '7', name: 'Sahel' })] } },
      '/api/events': (url) =>
        url.searchParams.has('watchlist')
          ? events([archivedEvent({ iso: 'NER', headline: 'Convoy attacked near Niamey' })])
          : events([]),
    });
    const { router } = renderApp('/events?iso=FRA');
    await screen.findByText(/No recorded event in France/);
    await userEvent.selectOptions(
      screen.getByRole('combobox', { name: 'Or a watchlist' }),
      'Sahel',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(router.state.location.search).toBe('?watchlist=7');
    expect(await screen.findByText('Convoy attacked near Niamey')).toBeInTheDocument();
    expect(bff.calls('/api/events').at(-1)?.search).toBe('?watchlist=7');
    expect(screen.getByText('1 event in the watchlist “Sahel” shown.')).toBeInTheDocument();
  });
});

describe('a country page archive', () => {
  it('does not list again the events of the live feed above it, unless searched for', async () => {
    const live = country().events ?? [];
    const older = archivedEvent({ ts: '2025-05-20T08:00:00.000Z', headline: 'A May event' });
    installFakeBff({
      ...shellRoutes(),
      '/api/status': { body: statusBody() },
      '/api/v1/country/UKR': { body: countryBody() },
      ...historyRoutes(),
      '/api/events': (url) =>
        events([
          ...live.map((e) => archivedEvent({ ...e, iso: 'UKR' })),
          ...(url.searchParams.has('q') ? [] : [older]),
        ]),
    });
    renderApp('/country/UKR');
    const panel = await screen.findByRole('region', { name: 'Event archive' });
    const list = await within(panel).findByRole('list');
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    expect(within(list).getByText('A May event')).toBeInTheDocument();
    expect(
      within(panel).getByText(
        `Events recorded for UKR before the ${live.length} in the feed above, newest first.`,
      ),
    ).toBeInTheDocument();
    // A search looks through everything, the feed's events included.
    await userEvent.type(within(panel).getByRole('searchbox'), 'event');
    await userEvent.click(within(panel).getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(within(panel).getAllByRole('listitem')).toHaveLength(live.length));
  });
});
