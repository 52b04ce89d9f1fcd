import { waitFor } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countriesBody, countryBody, hotspotsBody, statusBody, shellRoutes } from './fixtures/data';
import { site, sitesBody, withHistory, storeRoutes } from './fixtures/sites';
import { historyRoutes } from './fixtures/history';
import { installFakeBff } from './fake-bff';
import { renderApp } from './render-app';

/*
 * The map's sites layer reads the compact `/api/sites/points` (never the paged `/api/sites`),
 * and asks again with the ETag it holds: a 304 keeps the sites drawn.
 */
const POINTS_ETAG = 'W/"points-1"';
const points = {
  ok: true,
  as_of: '2026-03-01T08:00:00.000Z',
  total: 2,
  id: [4, 9],
  lat: [50.4, -33.9],
  lng: [30.5, 151.2],
  kind: ['plant', 'travel'],
  tier: ['crit', null],
  name: ['Kyiv plant', 'Sydney trip'],
  iso: ['UKR', 'AUS'],
  people: [30, 0],
};

function sitesBff() {
  const sent: Array<string | undefined> = [];
  const fake = installFakeBff({
    ...shellRoutes(),
    ...storeRoutes(),
    ...historyRoutes(),
    '/api/status': { body: statusBody(withHistory) },
    '/api/countries': { body: countriesBody() },
    '/api/v1/hotspots': { body: hotspotsBody() },
    '/api/v1/country/UKR': { body: countryBody() },
    '/api/sites': { body: sitesBody([site({ id: 4, name: 'Kyiv plant' })]) },
    // Asked again with the ETag it answered: 304, no body.
    '/api/sites/points': (_url, init) => {
      const held = (init?.headers as Record<string, string> | undefined)?.['If-None-Match'];
      sent.push(held);
      return held === POINTS_ETAG
        ? { status: 304, body: null }
        : { body: points, headers: { ETag: POINTS_ETAG } };
    },
  });
  return { fake, sent };
}

// jsdom lays nothing out: the map's view would be a point and hold no site. Leaflet reads its
// size from clientWidth / clientHeight; a desktop map's size here, for this file only.
const sized = ['clientWidth', 'clientHeight'] as const;
const own = sized.map((key) => Object.getOwnPropertyDescriptor(HTMLElement.prototype, key));
beforeAll(() => {
  for (const [key, value] of [
    ['clientWidth', 1200],
    ['clientHeight', 600],
  ] as const) {
    Object.defineProperty(HTMLElement.prototype, key, { configurable: true, get: () => value });
  }
});
afterAll(() => {
  sized.forEach((key, i) => {
    const descriptor = own[i];
    if (descriptor) Object.defineProperty(HTMLElement.prototype, key, descriptor);
    else delete (HTMLElement.prototype as unknown as Record<string, unknown>)[key];
  });
});

const siteMarkers = (container: HTMLElement) =>
  [...container.querySelectorAll<HTMLElement>('.world-map .site-marker')].map(
    (marker) => marker.textContent,
  );

describe('our sites on the map', () => {
  it('draws the points of /api/sites/points, and keeps them on a 304 to its ETag', async () => {
    const { fake, sent } = sitesBff();
    const { container, queryClient } = renderApp('/?sites=1');
    const drawn = [
      'Site Kyiv plant (plant, 30 people), UKR Critical. Open site page',
      'Site Sydney trip (travel), AUS no current data. Open site page',
    ];
    await waitFor(() => expect(siteMarkers(container)).toEqual(drawn));
    expect(fake.calls('/api/sites')).toEqual([]);
    expect(sent).toEqual([undefined]);

    await queryClient.invalidateQueries({ queryKey: ['sites'] });
    await waitFor(() => expect(sent).toEqual([undefined, POINTS_ETAG]));
    await waitFor(() =>
      expect(queryClient.getQueryState(['sites', 'points'])).toMatchObject({
        status: 'success',
        fetchStatus: 'idle',
        error: null,
      }),
    );
    expect(siteMarkers(container)).toEqual(drawn);
  });
});
