import { tierForRisk, type KnownTier } from '../shared/tiers.js';
import { yesterdayIndex, type BatchClock } from './batches.js';
import { eventCandidates, eventsBetween, type EventCandidates, type PoolEvent } from './events.js';
import { allPlaces, type Place } from './geography.js';
import { countryFigures, globalFigures } from './labels.js';
import type { Batch, BatchScores, CountryOut, EventOut, TierCounts } from './payload-types.js';
import { round2 } from './prng.js';
import {
  countryScoresAt,
  countryTraits,
  type CountryScores,
  type CountryTraits,
} from './scores.js';
import { feedHistory, sourceDiagnostics } from './diagnostics.js';
import { ABSENT_ISOS, METHODOLOGY_VERSION } from './vocabulary.js';
import { HOUR_MS } from '../shared/durations.js';

/** Fixed, always-present country whose newest event turns hostile with `adversarialEvents`. */
export const ADVERSARIAL_ISO = 'UKR';
export const ADVERSARIAL_HEADLINE = '<img src=x onerror="window.__xss=1">Ceasefire <b>talks</b>';
export const ADVERSARIAL_URL = 'javascript:window.__xss=1';

export const EVENT_WINDOW_MS = 72 * HOUR_MS;
const BREAKING_MS = 6 * HOUR_MS;
export const MAX_COUNTRY_EVENTS = 20;
const SCORE_CACHE_SIZE = 64;

export interface DemoDataOptions {
  clock: BatchClock;
  adversarialEvents?: boolean;
  /**
   * Other words for the tiers (`{ mod: 'elevated' }`), as an upstream with its own vocabulary
   * sends them in every `tier` field; the `tier` filter of /hotspots still takes the documented
   * codes, and the export's per-tier counts keep their documented keys.
   */
  tierLabels?: TierWords;
}

export type TierWords = Partial<Record<KnownTier, string>>;

/** Generates batches on demand and keeps the current one (and recent scores) in memory. */
export class DemoData {
  readonly clock: BatchClock;
  readonly places: readonly Place[];
  private readonly adversarial: boolean;
  private readonly tierWords: TierWords;
  private readonly traits = new Map<string, CountryTraits>();
  readonly candidates: EventCandidates;
  private readonly scoreCache = new Map<number, BatchScores>();
  private current: Batch | undefined;

  constructor(options: DemoDataOptions) {
    this.clock = options.clock;
    this.adversarial = options.adversarialEvents ?? false;
    this.tierWords = options.tierLabels ?? {};
    this.places = allPlaces().filter((place) => !ABSENT_ISOS.includes(place.iso));
    for (const place of this.places) this.traits.set(place.iso, countryTraits(place.iso));
    const baselines = new Map([...this.traits].map(([iso, t]) => [iso, t.baseline]));
    this.candidates = eventCandidates(this.places, baselines);
  }

  /** The batch in force at `now` (epoch ms). */
  batchAt(now: number): Batch {
    const index = this.clock.indexAt(now);
    if (this.current?.index !== index) this.current = this.buildBatch(index);
    return this.current;
  }

  scoresOf(index: number): BatchScores {
    const cached = this.scoreCache.get(index);
    if (cached) return cached;
    const byIso = new Map<string, CountryScores>();
    const counts: TierCounts = { countries: 0, crit: 0, high: 0, mod: 0, low: 0 };
    let weightSum = 0;
    let staticSum = 0;
    let activeSum = 0;
    for (const [iso, traits] of this.traits) {
      const scores = countryScoresAt(traits, index);
      byIso.set(iso, scores);
      counts.countries += 1;
      counts[tierForRisk(scores.risk)] += 1;
      // The global index is a risk-weighted mean: hotspots weigh more than quiet countries.
      weightSum += scores.risk;
      staticSum += scores.risk * scores.static;
      activeSum += scores.risk * scores.active;
    }
    const globalStatic = round2(staticSum / weightSum);
    const globalActive = round2(activeSum / weightSum);
    const global = {
      ggri: round2(globalStatic + globalActive),
      static: globalStatic,
      active: globalActive,
    };
    const result = { byIso, global, counts };
    this.scoreCache.set(index, result);
    if (this.scoreCache.size > SCORE_CACHE_SIZE) {
      const oldest = this.scoreCache.keys().next().value;
      if (oldest !== undefined) this.scoreCache.delete(oldest);
    }
    return result;
  }

  private worded<T extends { tier: KnownTier }>(figures: T): Omit<T, 'tier'> & { tier: string } {
    return { ...figures, tier: this.tierWords[figures.tier] ?? figures.tier };
  }

  private buildBatch(index: number): Batch {
    const asOfMs = this.clock.timeOf(index);
    const scores = this.scoresOf(index);
    const previous = this.scoresOf(index - 1);
    const yesterday = this.scoresOf(yesterdayIndex(this.clock, index));
    const pool = eventsBetween(asOfMs - EVENT_WINDOW_MS, asOfMs, this.candidates);
    if (this.adversarial) makeAdversarial(pool);

    const eventsByIso = new Map<string, EventOut[]>();
    const sourcesByIso = new Map<string, Set<string>>();
    for (let i = pool.length - 1; i >= 0; i -= 1) {
      const event = pool[i];
      if (!event) continue;
      addEvent(eventsByIso, sourcesByIso, event.locus, toEventOut(event, 'locus', asOfMs));
      if (event.actor) {
        addEvent(eventsByIso, sourcesByIso, event.actor, toEventOut(event, 'actor', asOfMs));
      }
    }

    const countries: CountryOut[] = this.places.map((place) => {
      const now = scores.byIso.get(place.iso);
      const before = previous.byIso.get(place.iso);
      const traits = this.traits.get(place.iso);
      if (!now || !before || !traits) throw new Error(`no scores for ${place.iso}`);
      return {
        iso: place.iso,
        name: place.name,
        lat: place.lat,
        lng: place.lng,
        ...this.worded(countryFigures(now, before, traits, index)),
        source_count: sourcesByIso.get(place.iso)?.size ?? 0,
        categories: now.categories,
        events: (eventsByIso.get(place.iso) ?? []).slice(0, MAX_COUNTRY_EVENTS),
      };
    });
    countries.sort((a, b) => b.risk - a.risk || a.iso.localeCompare(b.iso));

    const day = asOfMs - 24 * HOUR_MS;
    return {
      index,
      asOfMs,
      asOf: new Date(asOfMs).toISOString(),
      methodologyVersion: METHODOLOGY_VERSION,
      global: {
        ...this.worded(globalFigures(scores, yesterday)),
        events_24h: pool.filter((event) => event.ts > day).length,
      },
      counts: scores.counts,
      countries,
      byIso: new Map(countries.map((country) => [country.iso, country])),
      feedHistory: feedHistory(this.clock, this.candidates, (i) => this.scoresOf(i), index),
      sources: sourceDiagnostics(pool, index, asOfMs),
    };
  }
}

function addEvent(
  eventsByIso: Map<string, EventOut[]>,
  sourcesByIso: Map<string, Set<string>>,
  iso: string,
  event: EventOut,
): void {
  const events = eventsByIso.get(iso) ?? [];
  events.push(event);
  eventsByIso.set(iso, events);
  const sources = sourcesByIso.get(iso) ?? new Set<string>();
  sources.add(event.source);
  sourcesByIso.set(iso, sources);
}

function toEventOut(event: PoolEvent, role: 'locus' | 'actor', asOfMs: number): EventOut {
  return {
    ts: new Date(event.ts).toISOString(),
    headline: event.headline,
    url: event.url,
    source: event.source.domain,
    source_name: event.source.name,
    source_category: event.source.category,
    source_tier: event.source.tier,
    role,
    breaking: event.urgent && asOfMs - event.ts < BREAKING_MS,
    state_affiliated: event.source.stateAffiliated,
  };
}

/** Replaces the newest event involving ADVERSARIAL_ISO (pool is oldest first) with hostile text. */
function makeAdversarial(pool: PoolEvent[]): void {
  for (let i = pool.length - 1; i >= 0; i -= 1) {
    const event = pool[i];
    if (event && (event.locus === ADVERSARIAL_ISO || event.actor === ADVERSARIAL_ISO)) {
      pool[i] = { ...event, headline: ADVERSARIAL_HEADLINE, url: ADVERSARIAL_URL };
      return;
    }
  }
}
