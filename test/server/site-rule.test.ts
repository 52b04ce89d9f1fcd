import { describe, expect, it } from 'vitest';
import type { AlertNumbers } from '../../src/shared/alerts-api.js';
import {
  alertSites,
  collectHits,
  SITES_LISTED,
  inTravelWindow,
  siteAlertMessage,
  type CountryHits,
  type CountryMove,
} from '../../src/server/services/sites/site-rule.js';
import type { SiteRuleRow } from '../../src/server/store/sites-alerts.js';

/*
 * The site rule as a pure function: which countries within a site's radius fire (a tier rise or
 * |Δ active| ≥ the site's threshold), trips only in their window, the rule off, and the words.
 */
const AT = new Date('2026-05-10T12:00:00Z');

const nums = (tier: string, active: number): AlertNumbers => ({
  as_of: AT.toISOString(),
  risk: 50,
  tier,
  active,
});

function move(iso: string, name: string, before: AlertNumbers, after: AlertNumbers): CountryMove {
  return { iso, name, before, after };
}

let nextId = 1;
function site(over: Partial<SiteRuleRow> = {}): SiteRuleRow {
  const id = nextId++;
  return {
    id,
    ref: `R-${id}`,
    name: 'Lublin warehouse',
    iso: 'POL',
    kind: 'warehouse',
    people: 35,
    tripFrom: null,
    tripTo: null,
    nearby: [
      { iso: 'POL', km: 0 },
      { iso: 'UKR', km: 80 },
      { iso: 'BLR', km: 150 },
    ],
    alertOn: true,
    alertRadiusKm: 100,
    alertMinDelta: 10,
    ...over,
  };
}

function hitsOf(sites: SiteRuleRow[], moves: CountryMove[], at = AT): Map<string, CountryHits> {
  const hits = new Map<string, CountryHits>();
  collectHits(hits, sites, new Map(moves.map((m) => [m.iso, m])), at);
  return hits;
}

const ukraineUp = move('UKR', 'Ukraine', nums('high', 40), nums('crit', 42));
const belarusUp = move('BLR', 'Belarus', nums('mod', 20), nums('high', 22));

describe('the site rule', () => {
  it('a tier rise of a country within the radius alerts, naming the site, people and distance', () => {
    const hits = hitsOf([site()], [ukraineUp]);
    expect([...hits.keys()]).toEqual(['UKR']);
    expect(siteAlertMessage(hits.get('UKR')!)).toBe(
      'Lublin warehouse, 35 people: Ukraine, 80 km away, High → Critical',
    );
  });

  it('a country beyond the radius does not count; a wider radius takes it in', () => {
    expect(hitsOf([site()], [belarusUp]).size).toBe(0);
    expect([...hitsOf([site({ alertRadiusKm: 150 })], [belarusUp]).keys()]).toEqual(['BLR']);
  });

  it('radius 0 keeps only the site’s own country', () => {
    const own = move('POL', 'Poland', nums('mod', 20), nums('high', 21));
    const hits = hitsOf([site({ alertRadiusKm: 0 })], [own, ukraineUp]);
    expect([...hits.keys()]).toEqual(['POL']);
    expect(siteAlertMessage(hits.get('POL')!)).toBe(
      'Lublin warehouse, 35 people: Poland, its own country, Moderate → High',
    );
  });

  it('|Δ active| at the site’s threshold alerts, either way; just under it does not', () => {
    const down = move('UKR', 'Ukraine', nums('high', 50), nums('high', 40));
    const under = move('UKR', 'Ukraine', nums('high', 50), nums('high', 40.1));
    expect(siteAlertMessage(hitsOf([site()], [down]).get('UKR')!)).toBe(
      'Lublin warehouse, 35 people: Ukraine, 80 km away, active −10.0 (50.0 → 40.0)',
    );
    expect(hitsOf([site()], [under]).size).toBe(0);
    expect(hitsOf([site({ alertMinDelta: 9.8 })], [under]).size).toBe(1);
  });

  it('a tier falling is no alert (only rises are)', () => {
    const fall = move('UKR', 'Ukraine', nums('crit', 40), nums('high', 41));
    expect(hitsOf([site()], [fall]).size).toBe(0);
  });

  it('a site with its rule off never counts', () => {
    expect(hitsOf([site({ alertOn: false })], [ukraineUp]).size).toBe(0);
  });

  it('a trip counts from 7 days before it starts to the end of its last day', () => {
    const trip = { kind: 'travel' as const, tripFrom: '2026-05-17', tripTo: '2026-05-20' };
    const at = (iso: string) => inTravelWindow(trip, new Date(iso));
    expect(at('2026-05-09T23:59:59.999Z')).toBe(false);
    expect(at('2026-05-10T00:00:00Z')).toBe(true);
    expect(at('2026-05-20T23:59:59.999Z')).toBe(true);
    expect(at('2026-05-21T00:00:00Z')).toBe(false);
    // Another kind of site always counts, dates or not.
    expect(inTravelWindow({ ...trip, kind: 'office' }, new Date('2030-01-01'))).toBe(true);
    const traveller = site({ ...trip, name: 'Kyiv visit', people: 2 });
    expect(hitsOf([traveller], [ukraineUp], new Date('2026-05-09T12:00:00Z')).size).toBe(0);
    expect(hitsOf([traveller], [ukraineUp], new Date('2026-05-10T12:00:00Z')).size).toBe(1);
  });

  it('the payloads list at most SITES_LISTED sites, most people first, and count the rest', () => {
    const many = Array.from({ length: SITES_LISTED + 10 }, (_, i) => site({ people: i }));
    const sites = alertSites(hitsOf(many, [ukraineUp]).get('UKR')!);
    expect(sites.count).toBe(SITES_LISTED + 10);
    expect(sites.more).toBe(10);
    expect(sites.listed).toHaveLength(SITES_LISTED);
    expect(sites.listed[0]).toEqual({
      id: many.at(-1)!.id,
      ref: many.at(-1)!.ref,
      name: 'Lublin warehouse',
      people: SITES_LISTED + 9,
      iso: 'POL',
      distance_km: 80,
    });
    expect(sites.listed.at(-1)?.people).toBe(10);
  });

  it('many sites on one country: the three with most people named, the rest counted', () => {
    const many = Array.from({ length: 315 }, (_, i) =>
      site({ name: `Depot ${i}`, people: i === 7 ? 500 : i === 9 ? 400 : 10 }),
    );
    many.push(site({ name: 'Kyiv office', people: 900, nearby: [{ iso: 'UKR', km: 0 }] }));
    const hits = hitsOf(many, [ukraineUp]).get('UKR')!;
    expect(hits.sites).toBe(316);
    expect(siteAlertMessage(hits)).toBe(
      'Kyiv office, 900 people (its own country); Depot 7, 500 people (80 km away); ' +
        'Depot 9, 400 people (80 km away) and 313 more sites, 3,130 people: ' +
        'Ukraine, High → Critical (316 sites, 4,930 people)',
    );
  });
});
