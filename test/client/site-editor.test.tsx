import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Site } from '../../src/shared/sites-api';
import { countriesBody, countryBody, hotspotsBody, statusBody, shellRoutes } from './fixtures/data';
import { historyRoutes } from './fixtures/history';
import { exposureBody, site, sitesBody, withHistory } from './fixtures/sites';
import { installFakeBff, type Route } from './fake-bff';
import { renderApp } from './render-app';

const me = (role: 'viewer' | 'editor') => ({
  body: { ok: true, name: 'Ed', email: null, role, via: 'oidc', sign_out: null },
});

/** Every write sent to `path`: method, If-Match and the parsed JSON body. */
function writes(path: string) {
  return vi
    .mocked(fetch)
    .mock.calls.map(([input, init]) => ({ url: new URL(String(input), 'http://t'), init }))
    .filter(({ url, init }) => url.pathname === path && (init?.method ?? 'GET') !== 'GET')
    .map(({ url, init }) => ({
      search: url.search,
      method: init?.method,
      ifMatch: (init?.headers as Record<string, string>)['If-Match'],
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    }));
}

/** The methods of every request to `path`, in order. */
function methodsOf(path: string): string[] {
  return vi
    .mocked(fetch)
    .mock.calls.filter(([input]) => new URL(String(input), 'http://t').pathname === path)
    .map(([, init]) => init?.method ?? 'GET');
}

/** A BFF with site 1 (version `stored.version`); `onWrite` answers its PUT and DELETE. */
function siteBff(
  stored: { site: Site },
  onWrite: (init: RequestInit) => { status?: number; body: unknown } = () => ({
    body: { ok: true, site: { ...stored.site, version: stored.site.version + 1 } },
  }),
  extra: Record<string, Route> = {},
) {
  return installFakeBff({
    ...shellRoutes(),
    '/api/status': { body: statusBody(withHistory) },
    '/api/me': me('editor'),
    '/api/sites/1': (_url, init) =>
      (init?.method ?? 'GET') === 'GET'
        ? { body: { ok: true, site: stored.site } }
        : onWrite(init!),
    '/api/sites': { body: sitesBody([stored.site]) },
    '/api/exposure': { body: exposureBody() },
    '/api/v1/hotspots': { body: hotspotsBody() },
    '/api/countries': { body: countriesBody() },
    '/api/v1/country/UKR': { body: countryBody() },
    // /exposure's "Where site alerts go" panel: not what these tests are about.
    '/api/sites/alert-delivery': { status: 404, body: { ok: false, error: 'not in this test' } },
    ...historyRoutes(),
    ...extra,
  });
}

/** Replaces a field's text in one change (typing key by key is slow in jsdom on a busy machine). */
async function fill(field: HTMLElement, text: string) {
  fireEvent.change(field, { target: { value: text } });
  await Promise.resolve();
}

async function openEditor() {
  renderApp('/sites/1');
  return screen.findByRole('region', { name: 'Edit the site' });
}

// 20 s: the first test loads the lazy site route, and typing re-renders a whole page (a busy
// 2-core machine took 5-6 s for it).
describe('editing a site on /sites/:id', () => {
  it('sends every field and the rule with If-Match, and says what the rule will do', async () => {
    const stored = { site: site({ version: 3 }) };
    siteBff(stored);
    const form = await openEditor();
    const sentence = within(form).getByText(/^Alerts when/);
    expect(sentence).toHaveTextContent(
      'Alerts when any country within 100 km of this site rises a tier or its active score moves by 10 or more.',
    );
    const field = (label: string) => within(form).getByLabelText(label);
    await fill(field('Name'), 'Kyiv trip');
    await userEvent.selectOptions(field('Kind'), 'travel');
    await fill(field('People (optional)'), '3');
    await fill(field('Value (optional)'), '2500');
    await fill(field('Currency (optional)'), 'eur');
    await fill(field('Tags (optional)'), 'emea, ops');
    await fill(field('Trip from'), '2026-12-01');
    await fill(field('Trip to'), '2026-12-05');
    await fill(field('Radius (km)'), '150');
    await fill(field('Move of the active score (points)'), '5');
    expect(sentence).toHaveTextContent(
      'Alerts when any country within 150 km of this site rises a tier or its active score moves by 5 or more, during the trip and the 7 days before it.',
    );
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByRole('status')).toHaveTextContent('Saved.');
    expect(writes('/api/sites/1')).toEqual([
      {
        search: '',
        method: 'PUT',
        ifMatch: '"3"',
        body: {
          ref: 'KYIV-1',
          name: 'Kyiv trip',
          kind: 'travel',
          lat: 50.45,
          lng: 30.52,
          iso: null,
          people: 3,
          value: 2500,
          currency: 'EUR',
          tags: ['emea', 'ops'],
          from: '2026-12-01',
          to: '2026-12-05',
          alert: { on: true, radius_km: 150, min_delta: 5 },
        },
      },
    ]);
    // What a save makes stale is asked again: the site (its page), whatever the answer was.
    await waitFor(() => expect(methodsOf('/api/sites/1').slice(-2)).toEqual(['PUT', 'GET']));
  });

  it('keeps a site whose country was given in that country, and turns the rule off in words', async () => {
    siteBff({
      site: site({ placed_by: 'given', alert: { on: true, radius_km: 0, min_delta: 12 } }),
    });
    const form = await openEditor();
    expect(within(form).getByText(/^Alerts when/)).toHaveTextContent(
      "Alerts when this site's own country rises a tier or its active score moves by 12 or more.",
    );
    expect(within(form).getByRole('list', { name: /Chosen countries/ })).toHaveTextContent(
      'Ukraine',
    );
    await userEvent.click(within(form).getByLabelText('Alert about this site'));
    expect(within(form).getByText(/rule is off/)).toHaveTextContent(
      'No alerts about this site: its rule is off.',
    );
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await within(form).findByText('Saved.');
    expect(writes('/api/sites/1')[0]?.body).toMatchObject({
      iso: 'UKR',
      alert: { on: false, radius_km: 0, min_delta: 12 },
    });
  });

  it('shows every problem it finds next to its field, focuses the first, and sends nothing', async () => {
    siteBff({ site: site() });
    const form = await openEditor();
    const lat = within(form).getByLabelText('Latitude');
    const radius = within(form).getByLabelText('Radius (km)');
    await userEvent.clear(lat);
    await userEvent.type(lat, '95');
    await userEvent.clear(radius);
    await userEvent.type(radius, '400');
    expect(within(form).getByText(/^The rule needs/)).toBeInTheDocument();
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(lat).toHaveFocus());
    expect(lat).toHaveAttribute('aria-invalid', 'true');
    expect(lat).toHaveAccessibleDescription(/The latitude must be from -90 to 90 degrees/);
    expect(radius).toHaveAccessibleDescription(/The radius must be at most 300/);
    expect(within(form).getByLabelText('Name')).not.toHaveAttribute('aria-invalid');
    expect(writes('/api/sites/1')).toEqual([]);
  });

  it("shows the server's refusal next to the field it names", async () => {
    siteBff({ site: site() }, () => ({
      status: 409,
      body: { ok: false, error: 'ref: another site already has this ref' },
    }));
    const form = await openEditor();
    const ref = within(form).getByLabelText('Ref (your own id)');
    await userEvent.type(ref, 'X');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    // The refusal arrives, then the field is marked, described and focused (an effect after it).
    await waitFor(() => {
      expect(ref).toHaveAttribute('aria-invalid', 'true');
      expect(ref).toHaveAccessibleDescription('Another site already has this ref');
      expect(ref).toHaveFocus();
    });
  });

  it('reports an edit made elsewhere (412) and starts again from the stored site on request', async () => {
    const stored = { site: site({ version: 1 }) };
    siteBff(stored, () => {
      // Someone else saved version 2 first.
      stored.site = site({ version: 2, name: 'Kyiv HQ' });
      return {
        status: 412,
        body: { ok: false, error: 'The site was changed by someone else since you loaded it' },
      };
    });
    const form = await openEditor();
    const name = within(form).getByLabelText('Name');
    await userEvent.clear(name);
    await userEvent.type(name, 'Mine');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(/changed by someone else/);
    const again = await within(form).findByRole('button', {
      name: 'Start again from the stored site',
    });
    // Until then the typed name stays, and a second save is refused again (If-Match "1").
    expect(name).toHaveValue('Mine');
    await userEvent.click(again);
    expect(within(form).getByLabelText('Name')).toHaveValue('Kyiv HQ');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(writes('/api/sites/1')).toHaveLength(2));
    expect(writes('/api/sites/1').map((w) => w.ifMatch)).toEqual(['"1"', '"2"']);
  });

  it('deletes the site with If-Match after a confirmation, then opens /exposure', async () => {
    siteBff({ site: site({ version: 4 }) }, () => ({ body: { ok: true } }));
    const form = await openEditor();
    await userEvent.click(within(form).getByRole('button', { name: 'Delete site' }));
    expect(writes('/api/sites/1')).toEqual([]);
    const confirm = within(form).getByRole('group', { name: 'Delete the site?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Yes, delete' }));
    expect(await screen.findByRole('heading', { level: 1, name: /^Exposure/ })).toBeVisible();
    expect(writes('/api/sites/1')).toEqual([
      { search: '', method: 'DELETE', ifMatch: '"4"', body: undefined },
    ]);
    // The deleted site is not asked for again (a 404 flashing "No such site" before /exposure).
    const methods = methodsOf('/api/sites/1');
    expect(methods.slice(methods.indexOf('DELETE'))).toEqual(['DELETE']);
  });

  it('offers a viewer no edit controls, on the site page or on /exposure', async () => {
    const bff = siteBff({ site: site() }, undefined, { '/api/me': me('viewer') });
    const { router } = renderApp('/sites/1');
    await screen.findByRole('region', { name: 'Countries within reach' });
    await waitFor(() => expect(bff.calls('/api/me').length).toBeGreaterThan(0));
    expect(screen.queryByRole('region', { name: 'Edit the site' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete site' })).toBeNull();
    await act(() => router.navigate('/exposure'));
    await screen.findByRole('region', { name: 'Riskiest sites' });
    expect(screen.queryByRole('region', { name: 'New site' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Import sites' })).toBeNull();
  });
});

describe('a new site on /exposure', () => {
  /** A BFF whose `POST /api/sites` answers `created`; every other request to it lists no site. */
  function newSiteBff(created: { status?: number; body: unknown }) {
    return installFakeBff({
      ...shellRoutes(),
      '/api/status': { body: statusBody(withHistory) },
      '/api/me': me('editor'),
      '/api/exposure': { body: exposureBody() },
      '/api/sites': (_url, init) => (init?.method === 'POST' ? created : { body: sitesBody() }),
      '/api/sites/7': { body: { ok: true, site: site({ id: 7, ref: 'WAW-1', name: 'Warsaw' }) } },
      '/api/v1/hotspots': { body: hotspotsBody() },
      '/api/countries': { body: countriesBody() },
      '/api/v1/country/UKR': { body: countryBody() },
      // /exposure's "Where site alerts go" panel: not what these tests are about.
      '/api/sites/alert-delivery': { status: 404, body: { ok: false, error: 'not in this test' } },
      ...historyRoutes(),
    });
  }

  async function fillNewSite() {
    renderApp('/exposure');
    const panel = await screen.findByRole('region', { name: 'New site' });
    await userEvent.click(within(panel).getByRole('button', { name: 'Add a site' }));
    expect(within(panel).getByText(/^New sites get the default rule/)).toHaveTextContent(
      'Alerts when any country within 100 km of this site rises a tier or its active score moves by 10 or more.',
    );
    await userEvent.type(within(panel).getByLabelText('Name'), 'Warsaw');
    await userEvent.type(within(panel).getByLabelText('Ref (your own id)'), 'WAW-1');
    await userEvent.type(within(panel).getByLabelText('Latitude'), '52.23');
    await userEvent.type(within(panel).getByLabelText('Longitude'), '21.01');
    await userEvent.click(within(panel).getByRole('button', { name: 'Add site' }));
    return panel;
  }

  it('stores the site with one POST /api/sites (not an import) and opens its page', async () => {
    newSiteBff({
      status: 201,
      body: { ok: true, site: site({ id: 7, ref: 'WAW-1', name: 'Warsaw', version: 1 }) },
    });
    await fillNewSite();
    expect(await screen.findByRole('heading', { level: 1, name: 'Warsaw' })).toBeVisible();
    const row = {
      ref: 'WAW-1',
      name: 'Warsaw',
      kind: 'office',
      lat: 52.23,
      lng: 21.01,
      iso: null,
      people: null,
      value: null,
      currency: null,
      tags: [],
      from: null,
      to: null,
    };
    expect(writes('/api/sites')).toEqual([
      { search: '', method: 'POST', ifMatch: undefined, body: row },
    ]);
    expect(writes('/api/sites/import')).toEqual([]);
  });

  it('refuses a ref another site has, next to the ref, and stores nothing', async () => {
    newSiteBff({
      status: 409,
      body: { ok: false, error: 'ref: another site already has this ref' },
    });
    const panel = await fillNewSite();
    const ref = within(panel).getByLabelText('Ref (your own id)');
    await waitFor(() =>
      expect(ref).toHaveAccessibleDescription('Another site already has this ref'),
    );
    expect(writes('/api/sites').map((w) => w.method)).toEqual(['POST']);
    expect(screen.queryByRole('heading', { level: 1, name: 'Warsaw' })).toBeNull();
  });

  it("shows a refused point next to the latitude, in the server's words", async () => {
    newSiteBff({
      status: 400,
      body: { ok: false, error: 'the point is 400 km from the nearest country (POL)' },
    });
    const panel = await fillNewSite();
    const lat = within(panel).getByLabelText('Latitude');
    await waitFor(() =>
      expect(lat).toHaveAccessibleDescription(/The point is 400 km from the nearest country/),
    );
  });
});
