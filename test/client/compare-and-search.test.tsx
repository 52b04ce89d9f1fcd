import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { countriesBody, countryBody, hotspotsBody, statusBody, shellRoutes } from './fixtures/data';
import {
  countryHistoryBody,
  countryHistoryRoutes,
  countryPoints,
  historyRoutes,
} from './fixtures/history';
import { installFakeBff } from './fake-bff';
import { renderApp } from './render-app';
import { notesRoutes } from './fixtures/sites';

function compareBff() {
  const points = countryPoints(4);
  return installFakeBff({
    ...shellRoutes(),
    '/api/status': { body: statusBody() },
    '/api/countries': { body: countriesBody() },
    ...historyRoutes(),
    '/api/history/country/MLI': { body: countryHistoryBody('MLI', 'Mali', points) },
    '/api/history/country/NER': {
      body: countryHistoryBody(
        'NER',
        'Niger',
        points.map((p) => ({ ...p, risk: (p.risk ?? 0) - 10 })),
      ),
    },
    '/api/history/country/BFA': {
      body: countryHistoryBody('BFA', 'Burkina Faso', points.slice(2)),
    },
    '/api/history/country/ZZZ': { status: 404, body: { ok: false, error: 'No history for ZZZ' } },
    ...countryHistoryRoutes({ TCD: 'Chad', SDN: 'Sudan', SSD: 'South Sudan' }, points),
  });
}

// These render the whole app with its lazy chunks (recharts); on two shared cores under a full
// run that has taken over vitest's 5 s default. The time limit is no assertion of speed.
describe('compare', () => {
  it('/compare?iso=MLI,NER,BFA shows key numbers, categories side by side and the overlaid trend', async () => {
    compareBff();
    const { router } = renderApp('/compare?iso=MLI,NER,BFA');
    const numbers = await screen.findByRole('region', { name: 'Key numbers' });
    const rows = within(numbers).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getByRole('link').textContent)).toEqual([
      'Mali',
      'Niger',
      'Burkina Faso',
    ]);
    expect(rows[0]).toHaveTextContent('86.10');
    expect(rows[1]).toHaveTextContent('76.10');
    const categories = screen.getByRole('region', { name: 'Categories side by side' });
    expect(
      within(categories)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Category', 'Mali', 'Niger', 'Burkina Faso']);
    expect(within(categories).getByRole('row', { name: /Security/ })).toHaveTextContent(
      'Security92.092.092.0',
    );
    expect(document.title).toBe('Compare MLI, NER, BFA · Global Risk Dashboard');

    // The trend's table: one row per batch, a gap where Burkina Faso has no point yet.
    await userEvent.click(screen.getByRole('button', { name: 'Table' }));
    const params = new URLSearchParams(router.state.location.search);
    expect([params.get('iso'), params.get('view')]).toEqual(['MLI,NER,BFA', 'table']);
    const trend = within(screen.getByRole('region', { name: 'Risk over time table' }));
    const trendRows = trend.getAllByRole('row');
    expect(trendRows).toHaveLength(1 + 4);
    expect(trendRows[1]).toHaveTextContent('n/a');
    expect(trendRows[4]).toHaveTextContent('86.1076.1086.10');
  });

  it('a bad compare URL gets plain words, not a crash', async () => {
    compareBff();
    renderApp('/compare?iso=MLI,X1,<script>,X1,mli');
    const notes = await screen.findByRole('status', { name: 'About this comparison' });
    expect(notes).toHaveTextContent('“X1” is not a three-letter ISO country code such as MLI.');
    expect(notes).toHaveTextContent('“<script>” is not a three-letter ISO country code');
    // Each problem once; "mli" is the same country as "MLI".
    expect(within(notes).getAllByText(/“X1”/)).toHaveLength(1);
    expect(
      within(screen.getByRole('list', { name: 'Compared countries' })).getAllByRole('listitem'),
    ).toHaveLength(1);
    expect(notes).toHaveTextContent(
      'Compare needs 2 to 6 countries, e.g. /compare?iso=MLI,NER,BFA.',
    );
    expect(await screen.findByRole('region', { name: 'Key numbers' })).toBeInTheDocument();
  });

  it('names unknown codes and compares the rest; no iso at all still renders', async () => {
    compareBff();
    const first = renderApp('/compare?iso=MLI,ZZZ,NER');
    expect(await screen.findByText('ZZZ is not a known ISO country code.')).toBeInTheDocument();
    const numbers = await screen.findByRole('region', { name: 'Key numbers' });
    expect(within(numbers).getAllByRole('row')).toHaveLength(1 + 2);
    first.unmount();

    renderApp('/compare');
    expect(await screen.findByRole('heading', { name: 'Compare countries' })).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'About this comparison' })).toHaveTextContent(
      'Compare needs 2 to 6 countries',
    );
  });

  it('more than six countries: the first six are compared, and it says so', async () => {
    const bff = compareBff();
    renderApp('/compare?iso=MLI,NER,BFA,TCD,SDN,SSD,CAF');
    expect(await screen.findByRole('status', { name: 'About this comparison' })).toHaveTextContent(
      'At most 6 countries can be compared; showing the first 6.',
    );
    const chips = screen.getByRole('list', { name: 'Compared countries' });
    expect(within(chips).getAllByRole('listitem')).toHaveLength(6);
    expect(bff.calls('/api/history/country/CAF')).toEqual([]);
  });
});

describe('search palette', () => {
  function searchBff() {
    return installFakeBff({
      ...shellRoutes(),
      '/api/status': { body: statusBody() },
      '/api/countries': { body: countriesBody() },
      '/api/v1/hotspots': { body: hotspotsBody() },
      '/api/v1/country/UKR': { body: countryBody() },
      '/api/v1/country/GBR': { body: countryBody({ iso: 'GBR', name: 'United Kingdom' }) },
      ...historyRoutes(),
      ...countryHistoryRoutes({ GBR: 'United Kingdom' }),
      // The team's notes (issue 31): one on Sudan mentions the UK.
      '/api/notes': (url: URL) => ({
        body: {
          ok: true,
          notes: NOTES.filter((n) =>
            n.text.toLowerCase().includes((url.searchParams.get('q') ?? '').toLowerCase()),
          ),
        },
      }),
      ...notesRoutes(['SDN']),
      '/api/v1/country/SDN': { body: countryBody({ iso: 'SDN', name: 'Sudan' }) },
      ...countryHistoryRoutes({ SDN: 'Sudan' }),
    });
  }
  const NOTES = [
    {
      id: '9',
      iso: 'SDN',
      text: 'Port Sudan office: UK staff evacuated',
      author: 'Ana Analyst',
      created_at: '2025-06-01T09:00:00.000Z',
      updated_at: '2025-06-01T09:00:00.000Z',
      version: 1,
    },
  ];

  it('finds notes by their text after the countries and opens the note’s country (issue 31)', async () => {
    searchBff();
    const { router } = renderApp('/');
    await userEvent.click(await screen.findByRole('button', { name: /Find a country/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Find a country' });
    const input = within(dialog).getByRole('combobox');
    await userEvent.type(input, 'evacuated');
    const notes = await within(dialog).findByRole('listbox', { name: 'Matching notes' });
    const [hit] = within(notes).getAllByRole('option');
    expect(hit).toHaveTextContent(
      'Note on Sudan SDNPort Sudan office: UK staff evacuated · Ana Analyst, 1 Jun 2025, 09:00 UTC',
    );
    expect(within(dialog).getByText(/1 note matches\./)).toBeInTheDocument();
    // No country is called that: the note is the first choice.
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/country/SDN'));
  });

  it('Ctrl+K opens it; a common name finds the country; arrows and Enter open it', async () => {
    searchBff();
    const { router } = renderApp('/country/UKR');
    const opener = await screen.findByRole('button', { name: /Find a country/ });
    opener.focus();
    await userEvent.keyboard('{Control>}k{/Control}');
    const dialog = await screen.findByRole('dialog', { name: 'Find a country' });
    const input = within(dialog).getByRole('combobox', { name: 'Country name or code' });
    expect(input).toHaveFocus();
    await userEvent.type(input, 'UK');
    const options = await within(dialog).findAllByRole('option');
    expect(options[0]).toHaveTextContent('United Kingdom GBR');
    expect(options[0]).toHaveTextContent('matches “UK”');
    expect(options[0]).toHaveAttribute('aria-selected', 'true');
    expect(input).toHaveAttribute('aria-activedescendant', options[0]!.id);
    await userEvent.keyboard('{ArrowDown}');
    expect(options[1]).toHaveAttribute('aria-selected', 'true');
    await userEvent.keyboard('{ArrowUp}{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/country/GBR'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('finds every name people type, marks countries outside the data, and Escape returns focus', async () => {
    searchBff();
    renderApp('/');
    const opener = await screen.findByRole('button', { name: /Find a country/ });
    await userEvent.click(opener);
    const dialog = await screen.findByRole('dialog');
    const input = within(dialog).getByRole('combobox');
    const first = async (typed: string) => {
      await userEvent.clear(input);
      await userEvent.type(input, typed);
      return (await within(dialog).findAllByRole('option'))[0]!;
    };
    // One name everywhere (issue 33, point 8); the other spellings still find it.
    expect(await first('Ivory Coast')).toHaveTextContent(
      /^Côte d'Ivoire CIV.*matches “Ivory Coast”/,
    );
    expect(await first('cote')).toHaveTextContent('CIV');
    expect(await first('Burma')).toHaveTextContent('Myanmar MMR');
    expect(await first('Russia')).toHaveTextContent('Russia RUS');
    expect(await first('South Korea')).toHaveTextContent('South Korea KOR');
    expect(await first('Iran')).toHaveTextContent('Iran IRN');
    expect(await first('ukr')).toHaveTextContent('Ukraine UKR');
    // In the data: no mark. Not in the data: says so, still findable.
    expect(await first('ukr')).not.toHaveTextContent('not in the current data');
    expect(await first('Burma')).toHaveTextContent('not in the current data');
    await userEvent.clear(input);
    await userEvent.type(input, 'qqqq');
    expect(within(dialog).getByText('No country matches “qqqq”.')).toBeInTheDocument();

    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => expect(opener).toHaveFocus());
  });

  it('/ opens it, but not while typing in a field', async () => {
    searchBff();
    renderApp('/');
    const search = await screen.findByRole('searchbox', { name: /Search/ });
    await userEvent.type(search, 'a/b');
    expect(search).toHaveValue('a/b');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    search.blur();
    await userEvent.keyboard('/');
    expect(await screen.findByRole('dialog', { name: 'Find a country' })).toBeInTheDocument();
  });
});
