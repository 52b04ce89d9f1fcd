import countryCodes from 'i18n-iso-countries';
import { measuredFromOlderBatch, type Alert } from '../../../shared/alerts-api.js';
import { outputsIn, type Outputs } from '../../../shared/i18n/outputs/translate.js';

/**
 * An alert's words in its reader's language (issue 34): the list's language for its e-mails and
 * webhooks. English is what the evaluator stored, byte for byte; another language says the same
 * from the alert's kind and numbers. Upstream text (a headline, a source) stays as it came.
 */

export { outputsIn, type Outputs };

/** A site a site alert names, as its payloads carry it (issue 20). */
export interface AlertSite {
  id: number;
  ref: string;
  name: string;
  people: number | null;
  /** The site's own country. */
  iso: string;
  /** From the site to the shape of the country that moved (0: the site's own). */
  distance_km: number;
}

/** The sites behind a site alert: every one counted, the first `listed` named (most people first). */
export interface AlertSites {
  count: number;
  people: number;
  listed: AlertSite[];
  /** Sites counted but not listed (the list is bounded). */
  more: number;
}

/** The alert's country in the reader's language (CLDR), English as the data names it. */
export function countryIn(alert: Pick<Alert, 'iso' | 'country'>, o: Outputs): string {
  if (o.language === 'en') return alert.country;
  return o.country(countryCodes.alpha3ToAlpha2(alert.iso.toUpperCase()), alert.country);
}

const BREAKING_PREFIX = 'Breaking event: ';

/** "+12.4" / "−3.0" in the reader's digits. */
function signedIn(o: Outputs, value: number): string {
  return `${value >= 0 ? '+' : '−'}${o.number(Math.abs(value), 1)}`;
}

/** "41,0 → 53,4" for a pair of numbers, null when either is missing. */
function movedIn(o: Outputs, before: number | null | undefined, after: number | null | undefined) {
  if (before == null || after == null) return null;
  return { before: o.number(before, 1), after: o.number(after, 1) };
}

/** Why the alert fired, in the reader's language. */
export function alertSentence(
  alert: Pick<Alert, 'kind' | 'message' | 'before' | 'after'>,
  o: Outputs,
): string {
  if (o.language === 'en') return alert.message;
  const { before, after } = alert;
  switch (alert.kind) {
    case 'active_change': {
      const moved = movedIn(o, before?.active, after.active);
      if (!moved || before?.active == null || after.active == null) break;
      const delta = signedIn(o, after.active - before.active);
      return measuredFromOlderBatch(alert.message)
        ? o.t('why.activeSince', { ...moved, delta, time: o.time(before.as_of) })
        : o.t('why.active', { ...moved, delta });
    }
    case 'tier_change':
      if (!before?.tier || !after.tier) break;
      return o.t('why.tier', { before: before.tier, after: after.tier });
    case 'risk_threshold': {
      const moved = movedIn(o, before?.risk, after.risk);
      if (moved) return o.t('why.risk', moved);
      break;
    }
    case 'team_index_threshold': {
      const moved = movedIn(o, before?.team, after.team);
      if (moved) return o.t('why.team', moved);
      break;
    }
    case 'breaking_event':
      // The headline and its source are the upstream's words, kept as they came.
      return alert.message.startsWith(BREAKING_PREFIX)
        ? `${o.t('why.breaking')}: ${alert.message.slice(BREAKING_PREFIX.length)}`
        : `${o.t('why.breaking')}: ${alert.message}`;
    case 'method_change':
      return o.t('why.method');
    case 'override_expired':
      return o.t('why.override');
  }
  return alert.message;
}

/** Distances in the reader's digits and unit name ("80 km"). */
const km = (o: Outputs, value: number): string =>
  o.language === 'en'
    ? `${Math.round(value).toLocaleString('en-US')} km`
    : `${o.number(Math.round(value))} km`;

const counted = (o: Outputs, count: number): string =>
  o.language === 'en' ? count.toLocaleString('en-US') : o.number(count);

/** One listed site in words: "Lublin warehouse (ref L-1, site 7), 35 people, POL, 80 km". */
export function siteLine(site: AlertSite, o: Outputs): string {
  const named = o.t('alert.site', { name: site.name, ref: site.ref, id: site.id });
  const people =
    site.people === null
      ? ''
      : `, ${o.t('alert.people', { count: site.people, shown: counted(o, site.people) })}`;
  return `${named}${people}, ${site.iso}, ${km(o, site.distance_km)}`;
}

/** "and 3 more sites" when the list was cut, else null. */
export function moreLine(sites: AlertSites, o: Outputs): string | null {
  if (sites.more <= 0) return null;
  return o.t('alert.moreSites', { count: sites.more, shown: counted(o, sites.more) });
}
