import { describe, expect, it } from 'vitest';
import {
  exposurePath,
  exposureViewParams,
  parseExposureView,
  sitesSpreadsheetPath,
} from '../../src/client/features/exposure/utils/exposure-view';
import {
  buildSiteIndex,
  isCluster,
  placesOf,
  tierRank,
  type SitePlace,
} from '../../src/client/features/map/utils/site-clusters';
import { sitesShown, withSitesShown } from '../../src/client/features/map/utils/sites-param';
import { distanceKm, nearest } from '../../src/client/features/sites/utils/distance';

const params = (text: string) => new URLSearchParams(text);

describe('the exposure view in the URL', () => {
  it('reads filters tolerantly: bad items dropped, codes upper-cased, lists sorted', () => {
    const view = parseExposureView(
      params(
        'tier=high,crit,BAD!&country=pol,xx,ukr&kind=plant,castle&tag=%20emea%20&weight=value&moved=week',
      ),
    );
    expect(view).toEqual({
      filters: {
        tiers: ['crit', 'high'],
        countries: ['POL', 'UKR'],
        kinds: ['plant'],
        tag: 'emea',
      },
      weight: 'value',
      period: 'week',
    });
  });

  it('falls back to people and the previous batch for unknown values', () => {
    const view = parseExposureView(params('weight=money&moved=month&tag='));
    expect(view.weight).toBe('people');
    expect(view.period).toBe('previous_batch');
    expect(view.filters.tag).toBeNull();
  });

  it('writes defaults as nothing and keeps parameters it does not own', () => {
    const current = params('map=10,20,3&tier=low&index_view=table');
    const written = exposureViewParams(
      {
        filters: { tiers: ['high', 'crit'], countries: [], kinds: [], tag: null },
        weight: 'people',
        period: 'previous_batch',
      },
      current,
    );
    expect(written.toString()).toBe('map=10%2C20%2C3&index_view=table&tier=crit%2Chigh');
    const round = exposureViewParams(
      parseExposureView(params('moved=day&weight=value&kind=office')),
    );
    expect(round.toString()).toBe('kind=office&weight=value&moved=day');
  });

  it('asks the BFF with the filters and the weight, and links the spreadsheet with the filters', () => {
    const filters = { tiers: ['crit'], countries: ['POL'], kinds: [], tag: 'emea' };
    expect(exposurePath(filters, 'people')).toBe(
      '/api/exposure?tier=crit&country=POL&tag=emea&weight=people',
    );
    expect(sitesSpreadsheetPath(filters)).toBe(
      '/api/spreadsheet/sites.csv?tier=crit&country=POL&tag=emea',
    );
    expect(sitesSpreadsheetPath({ tiers: [], countries: [], kinds: [], tag: null })).toBe(
      '/api/spreadsheet/sites.csv',
    );
  });

  it('shows the map layer only for ?sites=1, and switching it off removes the parameter', () => {
    expect(sitesShown(params('sites=1'))).toBe(true);
    expect(sitesShown(params('sites=yes'))).toBe(false);
    expect(withSitesShown(params('map=1,2,3'), true).toString()).toBe('map=1%2C2%2C3&sites=1');
    expect(withSitesShown(params('sites=1&tier=crit'), false).toString()).toBe('tier=crit');
  });
});

describe('sites on the map, clustered', () => {
  const place = (
    id: number,
    lat: number,
    lng: number,
    tier: string | null,
    people = 10,
  ): SitePlace => ({ id, name: `Site ${id}`, kind: 'office', iso: 'UKR', lat, lng, tier, people });

  it('groups nearby sites at a low zoom with the most severe tier and the people summed', () => {
    const index = buildSiteIndex(
      [
        place(1, 50.4, 30.5, 'low'),
        place(2, 50.5, 30.6, 'crit', 30),
        place(3, 50.45, 30.4, null),
        place(4, -33.9, 151.2, 'mod'),
      ],
      6,
    );
    const drawn = index.getClusters([-180, -85, 180, 85], 2);
    const clusters = drawn.filter(isCluster);
    expect(clusters).toHaveLength(1);
    expect(clusters[0]!.properties).toMatchObject({ point_count: 3, rank: 0, people: 50 });
    expect(drawn).toHaveLength(2);
    // Only what is in view is drawn: a box around Sydney holds one site.
    expect(index.getClusters([150, -35, 152, -33], 2)).toHaveLength(1);
  });

  it('keeps sites at one place a cluster at the largest zoom (zooming cannot part them)', () => {
    const index = buildSiteIndex([place(1, 10, 10, 'high'), place(2, 10, 10, 'high')], 6);
    const [only] = index.getClusters([-180, -85, 180, 85], 6);
    expect(only && isCluster(only)).toBe(true);
    if (!only || !isCluster(only)) return;
    expect(index.getClusterExpansionZoom(only.properties.cluster_id)).toBeGreaterThan(6);
  });

  it("reads /api/sites/points' columns as one place per site", () => {
    const places = placesOf({
      ok: true,
      as_of: null,
      total: 2,
      id: [4, 9],
      lat: [50.4, -33.9],
      lng: [30.5, 151.2],
      kind: ['plant', 'travel'],
      tier: ['crit', null],
      name: ['Kyiv plant', 'Sydney trip'],
      iso: ['UKR', 'AUS'],
      people: [30, 0],
    });
    expect(places).toEqual([
      {
        id: 4,
        lat: 50.4,
        lng: 30.5,
        kind: 'plant',
        tier: 'crit',
        name: 'Kyiv plant',
        iso: 'UKR',
        people: 30,
      },
      {
        id: 9,
        lat: -33.9,
        lng: 151.2,
        kind: 'travel',
        tier: null,
        name: 'Sydney trip',
        iso: 'AUS',
        people: 0,
      },
    ]);
  });

  it('ranks tiers from Critical (0) to no data (4)', () => {
    expect(['crit', 'high', 'mod', 'low', 'weird', null].map((t) => tierRank(t))).toEqual([
      0, 1, 2, 3, 4, 4,
    ]);
  });
});

describe('distances from a site', () => {
  it('measures great-circle km and orders the nearest first', () => {
    // Warsaw to Kyiv is about 690 km.
    expect(distanceKm({ lat: 52.23, lng: 21.01 }, { lat: 50.45, lng: 30.52 })).toBeCloseTo(690, -1);
    const near = nearest(
      { lat: 52.23, lng: 21.01 },
      [
        { iso: 'UKR', lat: 50.45, lng: 30.52 },
        { iso: 'DEU', lat: 52.52, lng: 13.4 },
        { iso: 'XXX', lat: null, lng: null },
      ],
      5,
    );
    expect(near.map((n) => n.place.iso)).toEqual(['DEU', 'UKR']);
  });
});
