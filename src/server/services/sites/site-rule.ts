import type { AlertNumbers } from '../../../shared/alerts-api.js';
import { tierDirection, tierLabel } from '../../../shared/tiers.js';
import type { SiteRuleRow } from '../../store/sites-alerts.js';
import type { AlertSites } from '../alerts/alert-messages.js';
import { DAY_MS } from '../../../shared/durations.js';

/*
 * The site rule (issue 20): a site alerts when any country within its radius (its own at 0 km)
 * rises a tier or moves |Δ active| ≥ its min_delta; a trip only during itself and the 7 days
 * before. Pure: the job (jobs/site-alert-evaluator.ts) reads the sites and batches and writes.
 * Distances come from each site's stored `nearby` list (computed once when the site was written).
 */

/** A trip's sites count from this long before it starts. */
export const TRIP_LEAD_DAYS = 7;
/** Sites named in one alert; the rest are counted ("and 312 more sites, 4,100 people"). */
export const SITES_NAMED = 3;
/** Sites listed in an alert's payloads (webhook JSON, e-mail): bounded whatever the sites. */
export const SITES_LISTED = 50;

/** One country's numbers in a batch and the batch before. */
export interface CountryMove {
  iso: string;
  name: string;
  before: AlertNumbers;
  after: AlertNumbers;
}

/** True when the site counts at `at`: any site but a trip; a trip from 7 days before it to its end. */
export function inTravelWindow(
  site: Pick<SiteRuleRow, 'kind' | 'tripFrom' | 'tripTo'>,
  at: Date,
): boolean {
  if (site.kind !== 'travel') return true;
  const t = at.getTime();
  if (
    site.tripFrom !== null &&
    t < Date.parse(`${site.tripFrom}T00:00:00Z`) - TRIP_LEAD_DAYS * DAY_MS
  ) {
    return false;
  }
  // The last day of the trip counts whole (its dates are UTC days).
  if (site.tripTo !== null && t >= Date.parse(`${site.tripTo}T00:00:00Z`) + DAY_MS) return false;
  return true;
}

interface Hit {
  id: number;
  ref: string;
  name: string;
  iso: string;
  people: number | null;
  km: number;
}

/** What one country's move means for our sites, summed over every site it touches. */
export interface CountryHits {
  move: CountryMove;
  tierRose: boolean;
  /** True when |Δ active| reached the threshold of at least one site (not only a tier rise). */
  activeMoved: boolean;
  sites: number;
  people: number;
  /** The sites listed (up to SITES_LISTED; the message names the first three): most people first, then nearest. */
  named: Hit[];
}

const outranks = (a: Hit, b: Hit): boolean =>
  (a.people ?? -1) > (b.people ?? -1) || ((a.people ?? -1) === (b.people ?? -1) && a.km < b.km);

/**
 * Adds one chunk of sites to `hits` (per country that moved). Work per site is its nearby list
 * (a few countries within 300 km), whatever the number of countries or batches.
 */
export function collectHits(
  hits: Map<string, CountryHits>,
  chunk: readonly SiteRuleRow[],
  moves: ReadonlyMap<string, CountryMove>,
  at: Date,
): void {
  for (const site of chunk) {
    if (!site.alertOn || !inTravelWindow(site, at)) continue;
    for (const { iso, km } of site.nearby) {
      // Nearest first: nothing after a country beyond the radius is within it.
      if (km > site.alertRadiusKm) break;
      const move = moves.get(iso);
      if (!move) continue;
      const tierRose = tierDirection(move.before.tier, move.after.tier) === 'up';
      const delta =
        move.before.active !== null && move.after.active !== null
          ? Math.abs(move.after.active - move.before.active)
          : 0;
      const activeMoved = delta >= site.alertMinDelta;
      if (!tierRose && !activeMoved) continue;
      let country = hits.get(iso);
      if (!country) {
        country = { move, tierRose, activeMoved: false, sites: 0, people: 0, named: [] };
        hits.set(iso, country);
      }
      country.activeMoved ||= activeMoved;
      country.sites += 1;
      country.people += site.people ?? 0;
      const hit = {
        id: site.id,
        ref: site.ref,
        name: site.name,
        iso: site.iso,
        people: site.people,
        km,
      };
      const place = country.named.findIndex((other) => outranks(hit, other));
      if (place >= 0) country.named.splice(place, 0, hit);
      else country.named.push(hit);
      if (country.named.length > SITES_LISTED) country.named.length = SITES_LISTED;
    }
  }
}

/** The sites behind one country's alert, as its webhook and e-mail carry them. */
export function alertSites(hits: CountryHits): AlertSites {
  return {
    count: hits.sites,
    people: hits.people,
    listed: hits.named.map((hit) => ({
      id: hit.id,
      ref: hit.ref,
      name: hit.name,
      people: hit.people,
      iso: hit.iso,
      distance_km: Math.round(hit.km * 10) / 10,
    })),
    more: hits.sites - hits.named.length,
  };
}

const count = (n: number): string => n.toLocaleString('en-US');
const one = (value: number): string => value.toFixed(1);

function change(hits: CountryHits): string {
  const { before, after } = hits.move;
  const parts: string[] = [];
  if (hits.tierRose && before.tier && after.tier) {
    parts.push(`${tierLabel(before.tier)} → ${tierLabel(after.tier)}`);
  }
  if (hits.activeMoved && before.active !== null && after.active !== null) {
    const delta = after.active - before.active;
    parts.push(
      `active ${delta >= 0 ? '+' : '−'}${one(Math.abs(delta))} (${one(before.active)} → ${one(after.active)})`,
    );
  }
  return parts.join(', ');
}

function siteWords(hit: Hit): string {
  return hit.people === null ? hit.name : `${hit.name}, ${count(hit.people)} people`;
}

const distance = (hit: Hit): string =>
  hit.km === 0 ? 'its own country' : `${count(Math.round(hit.km))} km away`;

/**
 * The alert's words, naming the sites and people: "Lublin warehouse, 35 people: Ukraine, 80 km
 * away, High → Critical"; with more sites, the three with most people and "and 312 more sites,
 * 4,100 people". Bounded whatever the number of sites.
 */
export function siteAlertMessage(hits: CountryHits): string {
  const country = hits.move.name;
  const shown = hits.named.slice(0, SITES_NAMED);
  const [first] = shown;
  if (hits.sites === 1 && first) {
    return `${siteWords(first)}: ${country}, ${distance(first)}, ${change(hits)}`;
  }
  const named = shown.map((hit) => `${siteWords(hit)} (${distance(hit)})`).join('; ');
  const restSites = hits.sites - shown.length;
  const restPeople = hits.people - shown.reduce((sum, hit) => sum + (hit.people ?? 0), 0);
  const rest =
    restSites > 0
      ? ` and ${count(restSites)} more site${restSites === 1 ? '' : 's'}, ${count(restPeople)} people`
      : '';
  return `${named}${rest}: ${country}, ${change(hits)} (${count(hits.sites)} sites, ${count(hits.people)} people)`;
}
