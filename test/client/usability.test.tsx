// Under two busy cores a test of several awaited steps can pass 5 s: the client project's test
// limit is 60 s (vitest.config.ts) and each findBy's 15 s (waits.ts), limits and not waits.
import type { QueryClient } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { previousBatchDue } from '../../src/shared/freshness';
import {
  countriesBody,
  countryBody,
  hotspot,
  HOTSPOTS,
  hotspotsBody,
  statusBody,
  shellRoutes,
} from './fixtures/data';
import { historyRoutes, countryHistoryRoutes } from './fixtures/history';
import { installFakeBff } from './fake-bff';
import { renderApp } from './render-app';

// Issue 11: what a new user tripped over (component tests through the real app and router).

const UK = hotspot({
  iso: 'GBR',
  name: 'United Kingdom of Great Britain and Northern Ireland',
  risk: 30,
  tier: 'low',
});

function overviewBff() {
  return installFakeBff({
    ...shellRoutes(),
    ...historyRoutes(),
    '/api/status': { body: statusBody() },
    '/api/countries': { body: countriesBody({ countries: [...HOTSPOTS, UK] }) },
    '/api/v1/hotspots': (url) => {
      const tier = url.searchParams.get('tier');
      if (tier !== null && !/^[a-z,]+$/.test(tier)) {
        return { status: 400, body: { ok: false, error: `tier "${tier}" is not a tier label` } };
      }
      const tiers = tier?.split(',') ?? null;
      const rows = tiers ? HOTSPOTS.filter((h) => tiers.includes(h.tier ?? '')) : HOTSPOTS;
      return { body: hotspotsBody({ hotspots: rows }) };
    },
  });
}

/**
 * The Hotspots panel: the countries named there are the table's and the search's (the page's
 * "What changed" panel links countries too).
 */
const hotspots = () => screen.findByRole('region', { name: 'Hotspots' });

function rowOf(name: string): HTMLElement {
  const link = within(screen.getByRole('table')).getByRole('link', { name });
  return link.closest('tr') as HTMLElement;
}

/** The row's "#" cell: the first cell that is not the Compare checkbox. */
function rankCell(row: HTMLElement): HTMLElement {
  const cells = within(row).getAllByRole('cell');
  const rank = cells.find((cell) => within(cell).queryByRole('checkbox') === null);
  if (!rank) throw new Error('row has no rank cell');
  return rank;
}

describe('"#" is the rank in the whole run (point 5)', () => {
  it("a tier filter keeps each country's real rank", async () => {
    overviewBff();
    renderApp('/?tier=mod');
    await within(await hotspots()).findByRole('link', { name: "Côte d'Ivoire" });
    // Côte d'Ivoire is 4th by risk in the batch; it is the only Moderate row.
    await waitFor(() => expect(rankCell(rowOf("Côte d'Ivoire"))).toHaveTextContent(/^4$/));
  });

  it('without a filter "#" is the position in the list', async () => {
    overviewBff();
    renderApp('/');
    await within(await hotspots()).findByRole('link', { name: 'Sudan' });
    expect(rankCell(rowOf('Sudan'))).toHaveTextContent(/^2$/);
  });
});

describe('tier case in the URL (point 9)', () => {
  it('/?tier=CRIT shows the critical rows and corrects the URL', async () => {
    const bff = overviewBff();
    const { router } = renderApp('/?tier=CRIT');
    const panel = await hotspots();
    await within(panel).findByRole('link', { name: 'Ukraine' });
    expect(within(panel).queryByRole('link', { name: 'Russia' })).not.toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe('?tier=crit'));
    expect(bff.calls('/api/v1/hotspots').map((u) => u.searchParams.get('tier'))).not.toContain(
      'CRIT',
    );
    // No refusal of the tier, nor any other error: every panel's request is answered here.
    expect(screen.queryAllByRole('alert').map((alert) => alert.textContent)).toEqual([]);
  });

  it('a refused request offers no "Try again" that would be refused again', async () => {
    installFakeBff({
      ...shellRoutes(),
      ...historyRoutes(),
      '/api/status': { body: statusBody() },
      '/api/countries': { body: countriesBody() },
      '/api/v1/hotspots': { status: 400, body: { ok: false, error: 'limit must be 1 to 50' } },
    });
    renderApp('/');
    const alert = await screen.findByText(/limit must be 1 to 50/);
    expect(alert.closest('[role="alert"]')).not.toBeNull();
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
  });
});

describe('search finds common names (point 10)', () => {
  it('"UK" finds the United Kingdom and "Ivory" finds Côte d\'Ivoire', async () => {
    overviewBff();
    renderApp('/');
    const panel = await hotspots();
    const search = await within(panel).findByRole('searchbox');
    await userEvent.type(search, 'UK');
    // Ukraine (name) in the table, the United Kingdom (alias) among matches outside the rows.
    expect(await within(panel).findByRole('link', { name: 'Ukraine' })).toBeInTheDocument();
    expect(await within(panel).findByRole('link', { name: /United Kingdom/ })).toBeInTheDocument();
    await userEvent.clear(search);
    await userEvent.type(search, 'Ivory');
    expect(await within(panel).findByRole('link', { name: "Côte d'Ivoire" })).toBeInTheDocument();
    expect(within(panel).queryByRole('link', { name: 'Ukraine' })).not.toBeInTheDocument();
  });
});

describe('unknown codes and names (point 8)', () => {
  it('/country/XXX says it is not a country code', async () => {
    installFakeBff({
      ...shellRoutes(),
      ...historyRoutes(),
      '/api/status': { body: statusBody() },
      '/api/v1/country/XXX': { status: 404, body: { ok: false, error: 'not found' } },
    });
    renderApp('/country/XXX');
    expect(
      await screen.findByRole('heading', { level: 1, name: '“XXX” is not a country code' }),
    ).toBeInTheDocument();
    expect(screen.queryByText(/low baseline/)).not.toBeInTheDocument();
  });

  it('/country/ISL names Iceland and says it has no current data', async () => {
    installFakeBff({
      ...shellRoutes(),
      ...historyRoutes(),
      '/api/status': { body: statusBody() },
      '/api/v1/country/ISL': { status: 404, body: { ok: false, error: 'not found' } },
      ...countryHistoryRoutes({ ISL: 'Iceland' }, []),
    });
    renderApp('/country/ISL');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Iceland: no current data' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/Iceland is not in the current data/)).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Iceland · Global Risk Dashboard'));
  });
});

describe('cold outage on a country page (point 7)', () => {
  it('says at once that the data service cannot be reached, with when to try again', async () => {
    const bff = installFakeBff({
      ...shellRoutes(),
      ...historyRoutes(),
      '/api/status': {
        body: statusBody({
          upstream: { health: 'down', last_error: null, message: null },
        }),
      },
      '/api/v1/country/UKR': {
        status: 503,
        headers: { 'Retry-After': '120' },
        body: { ok: false, error: 'The data service cannot be reached', retry_after_seconds: 120 },
      },
    });
    renderApp('/country/UKR');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(/cannot be reached/);
    expect(alert).toHaveTextContent(/Try again at \d\d:\d\d UTC/);
    // The BFF said when: asking again sooner only repeats the wait.
    expect(bff.calls('/api/v1/country/UKR')).toHaveLength(1);
    // The banner does not promise cached data that this page does not have.
    expect(screen.queryByText(/Cached data stays on screen/)).not.toBeInTheDocument();
    expect(countryBody).toBeDefined();
  });
});

describe('an open page follows the data (point 2)', () => {
  const NEXT = '2025-06-03T03:00:00.000Z';

  function changesBody(tierChanges: number) {
    const change = (iso: string, moved: boolean) => ({
      iso,
      name: iso,
      then: { risk: 50, tier: 'mod', static: 30, active: 20 },
      now: { risk: 38, tier: moved ? 'low' : 'mod', static: 30, active: 8 },
      delta_risk: -12,
      delta_active: -12,
      tier_change: moved ? 'down' : null,
      top_categories: [],
    });
    return {
      ok: true,
      since: 'previous',
      from_batch: { as_of: '2025-06-02T03:00:00.000Z' },
      to_batch: { as_of: NEXT },
      countries: [
        ...Array.from({ length: tierChanges }, (_, i) => change(`A${i}X`, true)),
        change('FRA', false),
      ],
      entered: [],
      left: [],
    };
  }

  async function newBatchArrives(bff: ReturnType<typeof overviewBff>, queryClient: QueryClient) {
    await screen.findByRole('table');
    await waitFor(() => expect(bff.calls('/api/status').length).toBeGreaterThan(0));
    bff.set('/api/status', { body: statusBody({ as_of: NEXT }) });
    bff.set('/api/countries', { body: countriesBody({ as_of: NEXT }) });
    // One status poll.
    await act(() => queryClient.refetchQueries({ queryKey: ['status'] }));
  }

  it('announces a new batch in words with its tier changes and a link to what changed', async () => {
    const bff = overviewBff();
    bff.set('/api/changes', { body: changesBody(3) });
    const { queryClient } = renderApp('/');
    await newBatchArrives(bff, queryClient);
    expect(
      await screen.findByText(/Updated to the 03:00 UTC batch: 3 tier changes\./),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'What changed' })).toHaveAttribute(
      'href',
      '/#what-changed',
    );
    expect(bff.calls('/api/changes')[0]?.searchParams.get('since')).toBe('previous');
  });

  it('without the history routes (404) it announces the batch alone', async () => {
    const bff = overviewBff();
    bff.set('/api/changes', { status: 404, body: { ok: false, error: 'Route not found' } });
    const { queryClient } = renderApp('/');
    await newBatchArrives(bff, queryClient);
    // The notice asks for the changes (so does the What changed panel, which shows its own state).
    await waitFor(() => expect(bff.calls('/api/changes').length).toBeGreaterThan(0));
    const notice = await screen.findByText('Updated to the 03:00 UTC batch.');
    expect(screen.queryByRole('link', { name: 'What changed' })).not.toBeInTheDocument();
    // The notice is not turned into an error (the history panels report their own 404s).
    expect(notice.closest('[role="alert"]')).toBeNull();
  });

  it('an outage shows on an open page within one status poll', async () => {
    const bff = overviewBff();
    const { queryClient } = renderApp('/');
    await screen.findByRole('table');
    await waitFor(() => expect(bff.calls('/api/status').length).toBeGreaterThan(0));
    expect(screen.queryByText(/^Stale/)).not.toBeInTheDocument();
    bff.set('/api/status', {
      body: statusBody({ upstream: { health: 'down', last_error: null, message: null } }),
    });
    // What the BFF answers during the outage: its cached copy, marked stale.
    bff.set('/api/countries', {
      body: { ...countriesBody(), stale: true, stale_reason: 'upstream unreachable' },
    });
    await act(() => queryClient.refetchQueries({ queryKey: ['status'] }));
    // One line says it all, with the data's own time; the panels do not repeat it (three boxes
    // on a phone before).
    const line = await screen.findByText(/The data service cannot be reached/);
    expect(line).toHaveTextContent(
      /^The data service cannot be reached\. Showing the last data received, from 2 Jun 2025, 10:00 UTC \(\d+ d ago\)\. The \d\d:\d\d UTC batch is overdue\.$/,
    );
    // The stale copy is on screen (asked again after the outage began), with no note of its own.
    const asked = bff.calls('/api/countries').length;
    await act(() => queryClient.refetchQueries({ queryKey: ['countries'] }));
    expect(bff.calls('/api/countries').length).toBeGreaterThan(asked);
    expect(screen.queryAllByText(/^Stale/)).toHaveLength(0);
  });

  it('an outage with an overdue batch is still one line (issue 19, point 14)', async () => {
    const due = previousBatchDue(Date.now());
    const asOf = new Date(due - 7 * 3600_000).toISOString();
    const bff = overviewBff();
    bff.set('/api/status', {
      body: statusBody({
        as_of: asOf,
        upstream: { health: 'down', last_error: null, message: null },
      }),
    });
    renderApp('/');
    const line = await screen.findByText(/The data service cannot be reached/);
    const dueText = new Date(due).toISOString().slice(11, 16);
    expect(line).toHaveTextContent(new RegExp(`The ${dueText} UTC batch is overdue\\.$`));
    expect(line.closest('.status-banner')!.querySelectorAll('p')).toHaveLength(1);
  });

  it('says an overdue batch is overdue, and a batch on time is not', async () => {
    const due = previousBatchDue(Date.now());
    const bff = overviewBff();
    bff.set('/api/status', {
      body: statusBody({ as_of: new Date(due - 7 * 3600_000).toISOString() }),
    });
    renderApp('/');
    const dueText = new Date(due).toISOString().slice(11, 16);
    expect(
      await screen.findByText(new RegExp(`The ${dueText} UTC batch is overdue`)),
    ).toBeInTheDocument();
    expect(screen.getByText(`${dueText} UTC · overdue`)).toBeInTheDocument();
    // The data's time has its date: "from 10:00 UTC" on two-day-old data would read as today.
    const asOf = new Date(due - 7 * 3600_000);
    const day = `${asOf.getUTCDate()} ${asOf.toLocaleString('en-GB', { month: 'short', timeZone: 'UTC' })} ${asOf.getUTCFullYear()}`;
    expect(screen.getByText(/batch is overdue/)).toHaveTextContent(
      new RegExp(
        `the data shown is from ${day}, ${asOf.toISOString().slice(11, 16)} UTC \\(\\d+ h ago\\)\\.$`,
      ),
    );
  });

  it('shows when the data service is asked next; "Check now" asks, and a new batch follows', async () => {
    const bff = overviewBff();
    const NEW = '2025-06-03T03:00:00.000Z';
    // The next check in half an hour (a time already passed is never shown: walk-status test).
    const next = new Date(Date.now() + 30 * 60_000).toISOString();
    bff.set('/api/status', { body: statusBody({ next_check_at: next }) });
    renderApp('/');
    const line = await screen.findByText(/next check/);
    expect(line.closest('p')).toHaveTextContent(
      new RegExp(`^Checked .+ · next check ${next.slice(11, 16)} UTC Check now$`),
    );
    // Too soon: the BFF's refusal is shown in its words, and nothing else changes.
    bff.set('/api/status/check', {
      method: 'POST',
      status: 429,
      body: { ok: false, error: 'ask again in 4 min', retry_after_seconds: 240 },
      headers: { 'Retry-After': '240' },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Check now' }));
    expect(await screen.findByText('ask again in 4 min')).toBeInTheDocument();
    // A check that finds a batch: the status is asked again at once, so the page moves to it.
    bff.set('/api/status/check', { method: 'POST', body: { ok: true, as_of: NEW } });
    bff.set('/api/status', { body: statusBody({ as_of: NEW }) });
    bff.set('/api/countries', {
      body: countriesBody({ as_of: NEW, countries: [...HOTSPOTS, UK] }),
    });
    const statusCalls = bff.calls('/api/status').length;
    await userEvent.click(screen.getByRole('button', { name: 'Check now' }));
    expect(
      await screen.findByText('A new batch was found; the page is updating.'),
    ).toBeInTheDocument();
    expect(bff.calls('/api/status/check')).toHaveLength(2);
    await waitFor(() => expect(bff.calls('/api/status').length).toBeGreaterThan(statusCalls));
    expect(await screen.findByText(/Updated to the 03:00 UTC batch/)).toBeInTheDocument();
  });

  it('says when the store cannot keep what it is given, in its own words', async () => {
    const bff = overviewBff();
    const message =
      'The store folder /data is gone: restart the dashboard with its folder in place.';
    bff.set('/api/status', {
      body: statusBody({
        store: { kind: 'pglite', health: 'failing', message, since: new Date().toISOString() },
      }),
    });
    renderApp('/');
    expect(await screen.findByText(message)).toBeInTheDocument();
  });

  it('a batch received after its due time is not overdue', async () => {
    const due = previousBatchDue(Date.now());
    const bff = overviewBff();
    bff.set('/api/status', { body: statusBody({ as_of: new Date(due + 60_000).toISOString() }) });
    renderApp('/');
    await screen.findByRole('table');
    await waitFor(() => expect(bff.calls('/api/status').length).toBeGreaterThan(0));
    expect(await screen.findByText('Next batch due')).toBeInTheDocument();
    expect(screen.queryByText(/overdue/)).not.toBeInTheDocument();
  });
});

describe('loading states (point 7)', () => {
  it('while the batch loads, the filter and the map say "loading", not "no tiers" or "no data"', async () => {
    const bff = overviewBff();
    // The batch and the hotspot list are slow: their answers never come in this test.
    bff.hold('/api/countries');
    bff.hold('/api/v1/hotspots');
    const { container } = renderApp('/');
    expect(await screen.findByText('Loading tiers…')).toBeInTheDocument();
    expect(screen.queryByText('No tiers in the data')).not.toBeInTheDocument();
    await waitFor(() =>
      expect(container.querySelectorAll('.world-map path.shape').length).toBeGreaterThan(150),
    );
    expect(container.querySelectorAll('.world-map path.shape-nodata')).toHaveLength(0);
    expect(screen.getByText('Loading the risk data for the map…')).toBeInTheDocument();
    expect(bff.calls('/api/status').length).toBeGreaterThan(0);
  });
});

describe('names that fit (point 10)', () => {
  it('the table shows common names, with the formal name as a tooltip', async () => {
    const drc = hotspot({
      iso: 'COD',
      name: 'Congo, Democratic Republic of the',
      risk: 80,
      tier: 'crit',
    });
    installFakeBff({
      ...shellRoutes(),
      ...historyRoutes(),
      '/api/status': { body: statusBody() },
      '/api/countries': { body: countriesBody({ countries: [drc, ...HOTSPOTS] }) },
      '/api/v1/hotspots': { body: hotspotsBody({ hotspots: [drc, ...HOTSPOTS] }) },
    });
    renderApp('/');
    const panel = await hotspots();
    const link = await within(panel).findByRole('link', { name: 'DR Congo' });
    expect(link).toHaveAttribute('title', 'Congo, Democratic Republic of the');
    // A short plain name stays as the data gives it.
    expect(within(panel).getByRole('link', { name: "Côte d'Ivoire" })).not.toHaveAttribute('title');
  });
});

describe('cold outage while the answer is still coming (point 7)', () => {
  it('says the data service cannot be reached while the page waits', async () => {
    const bff = installFakeBff({
      ...shellRoutes(),
      ...historyRoutes(),
      '/api/status': {
        body: statusBody({ upstream: { health: 'down', last_error: null, message: null } }),
      },
    });
    // The BFF is still retrying the upstream: its answer for the country has not come yet.
    bff.hold('/api/v1/country/UKR');
    renderApp('/country/UKR');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The data service cannot be reached right now, and Ukraine has not been loaded before.',
    );
  });
});
