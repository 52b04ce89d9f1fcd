import type { CountrySummary } from '../shared/bff-api.js';
import type { GlobalSummary } from '../shared/schemas/global.js';
import { documentedBatchClock, yesterdayIndex, type BatchClock } from './batches.js';
import { eventsBetween } from './events.js';
import { DemoData } from './generator.js';
import { countryFigures, globalFigures } from './labels.js';
import { countryTraits } from './scores.js';
import { METHODOLOGY_VERSION } from './vocabulary.js';
import { DAY_MS } from '../shared/durations.js';

/** A past batch as the demo upstream would have served it (scores and categories, no events). */
export interface PastBatch {
  index: number;
  asOf: string;
  methodologyVersion: string;
  global: GlobalSummary;
  /** `source_count` is left out: it counts news sources, and no news is generated for the past. */
  countries: CountrySummary[];
}

/**
 * The `count` batches before the one in force at `now`, oldest first, one at a time (the caller
 * stores each before the next is computed, so the event loop is never held for long), computed with the same pure
 * functions of the batch index that serve the live batches (so a seeded past joins the live
 * batches without a seam). For the BFF's demo history seed: only `npm start` uses it.
 */
export function* pastBatches(
  now: number,
  count: number,
  options: { clock?: BatchClock; wanted?: (asOfMs: number) => boolean } = {},
): Generator<PastBatch> {
  const clock = options.clock ?? documentedBatchClock;
  const data = new DemoData({ clock });
  const live = clock.indexAt(now);
  for (let index = live - count; index < live; index += 1) {
    // Generating costs ~15 ms a batch: skip those the caller already has (a restart).
    if (options.wanted?.(clock.timeOf(index)) === false) continue;
    yield pastBatch(data, index);
  }
}

function pastBatch(data: DemoData, index: number): PastBatch {
  const asOfMs = data.clock.timeOf(index);
  const scores = data.scoresOf(index);
  const previous = data.scoresOf(index - 1);
  const yesterday = data.scoresOf(yesterdayIndex(data.clock, index));
  const countries = data.places.flatMap((place) => {
    const now = scores.byIso.get(place.iso);
    const before = previous.byIso.get(place.iso);
    if (!now || !before) return [];
    return [
      {
        iso: place.iso,
        name: place.name,
        ...countryFigures(now, before, countryTraits(place.iso), index),
        categories: Object.fromEntries(
          Object.entries(now.categories).map(([name, parts]) => [name, { ...parts }]),
        ),
      },
    ];
  });
  return {
    index,
    asOf: new Date(asOfMs).toISOString(),
    methodologyVersion: METHODOLOGY_VERSION,
    global: {
      ...globalFigures(scores, yesterday),
      events_24h: eventsBetween(asOfMs - DAY_MS, asOfMs, data.candidates).length,
    },
    countries,
  };
}
