import type { CategoryName } from '../shared/categories.js';
import type { Place } from './geography.js';
import {
  cumulativeWeights,
  hashString,
  mix,
  mulberry32,
  pick,
  pickWeighted,
  randomInt,
} from './prng.js';
import { SOURCES, type Source } from './sources.js';
import { HEADLINE_TEMPLATES } from './vocabulary.js';
import { HOUR_MS } from '../shared/durations.js';

/**
 * The news pool. Events are generated per hour of absolute time (not per batch), so an event
 * reported at 08:12 appears, unchanged, in every batch whose window covers it, as a real feed would.
 */

export interface PoolEvent {
  id: string;
  ts: number;
  headline: string;
  url: string;
  category: CategoryName;
  locus: string;
  actor: string | null;
  source: Source;
  urgent: boolean;
}

export interface EventCandidates {
  places: readonly Place[];
  locusCumulative: number[];
  actorCumulative: number[];
}

const EVENT_SEED = hashString('demo-upstream/events');
const SOURCE_CUMULATIVE = cumulativeWeights(SOURCES.map((source) => source.weight));

// Countries that are often the other party in a story, whatever their own risk.
const ACTOR_BOOST: Readonly<Record<string, number>> = {
  USA: 60,
  CHN: 45,
  RUS: 40,
  GBR: 20,
  FRA: 20,
  DEU: 15,
  TUR: 20,
  IRN: 20,
  SAU: 15,
  IND: 15,
  ISR: 15,
  UKR: 10,
  EGY: 8,
  JPN: 8,
  BRA: 6,
  ZAF: 6,
  ARE: 8,
  QAT: 6,
};

export function eventCandidates(
  places: readonly Place[],
  baselines: ReadonlyMap<string, number>,
): EventCandidates {
  // Riskier countries make more news; the square keeps quiet countries rare but not silent.
  const locus = places.map((place) => Math.pow((baselines.get(place.iso) ?? 10) / 10, 2));
  const actor = places.map((place, i) => (locus[i] ?? 0) / 2 + (ACTOR_BOOST[place.iso] ?? 0));
  return {
    places,
    locusCumulative: cumulativeWeights(locus),
    actorCumulative: cumulativeWeights(actor),
  };
}

function slug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '-')
    .slice(0, 61)
    .replace(/-?[^-]*$/, ''); // cut at a word boundary
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The events reported during one hour (epoch ms / 1 h), in time order. */
export function eventsOfHour(hour: number, candidates: EventCandidates): PoolEvent[] {
  const random = mulberry32(mix(EVENT_SEED, hour));
  const count = randomInt(random, 7, 16);
  const events: PoolEvent[] = [];
  for (let n = 0; n < count; n += 1) {
    const template = pick(random, HEADLINE_TEMPLATES);
    const locus = pickWeighted(random, candidates.places, candidates.locusCumulative);
    let actor: Place | null = null;
    if (template.actor) {
      actor = pickWeighted(random, candidates.places, candidates.actorCumulative);
      if (actor.iso === locus.iso) {
        // Redraw once from the locus weights; a story needs two different countries.
        actor = pickWeighted(random, candidates.places, candidates.locusCumulative);
        if (actor.iso === locus.iso) continue;
      }
    }
    const ts = hour * HOUR_MS + Math.floor(random() * HOUR_MS);
    const source = pickWeighted(random, SOURCES, SOURCE_CUMULATIVE);
    const headline = capitalise(
      template.text
        .replaceAll('{locus}', locus.shortName)
        .replaceAll('{actor}', actor?.shortName ?? ''),
    );
    const id = mix(EVENT_SEED, hour, n).toString(16).padStart(8, '0');
    const day = new Date(ts).toISOString().slice(0, 10).replaceAll('-', '/');
    const section = template.category.replaceAll('_', '-');
    events.push({
      id,
      ts,
      headline,
      url: `https://${source.domain}/${section}/${day}/${slug(headline)}-${id}`,
      category: template.category,
      locus: locus.iso,
      actor: actor?.iso ?? null,
      source,
      urgent: template.urgent,
    });
  }
  return events.sort((a, b) => a.ts - b.ts);
}

/** Events with `from < ts <= to`, oldest first. */
export function eventsBetween(from: number, to: number, candidates: EventCandidates): PoolEvent[] {
  const events: PoolEvent[] = [];
  for (let hour = Math.floor(from / HOUR_MS); hour <= Math.floor(to / HOUR_MS); hour += 1) {
    for (const event of eventsOfHour(hour, candidates)) {
      if (event.ts > from && event.ts <= to) events.push(event);
    }
  }
  return events;
}
