import { tierForRisk } from '../shared/tiers.js';
import type { BatchClock } from './batches.js';
import { eventsBetween, type EventCandidates, type PoolEvent } from './events.js';
import type { BatchScores, FeedHistoryEntry, SourceDiagnostics } from './payload-types.js';
import { hashString, mix, round2, unit } from './prng.js';
import { SOURCES } from './sources.js';
import { METHODOLOGY_VERSION } from './vocabulary.js';
import { HOUR_MS } from '../shared/durations.js';

/** The JSON export's extras: the feed history of recent batches and per-source diagnostics. */

export const FEED_HISTORY_LENGTH = 14;

/** The last FEED_HISTORY_LENGTH batch runs, newest first. */
export function feedHistory(
  clock: BatchClock,
  candidates: EventCandidates,
  scoresOf: (index: number) => BatchScores,
  index: number,
): FeedHistoryEntry[] {
  const entries: FeedHistoryEntry[] = [];
  for (let k = 0; k < FEED_HISTORY_LENGTH; k += 1) {
    const batch = index - k;
    const scores = scoresOf(batch);
    const ingested = eventsBetween(clock.timeOf(batch - 1), clock.timeOf(batch), candidates);
    entries.push({
      as_of: new Date(clock.timeOf(batch)).toISOString(),
      methodology_version: METHODOLOGY_VERSION,
      status: 'ok',
      ggri: scores.global.ggri,
      tier: tierForRisk(scores.global.ggri),
      counts: scores.counts,
      events_ingested: ingested.length,
      duration_ms: 40_000 + Math.floor(unit(mix(0x5eed, batch)) * 50_000),
    });
  }
  return entries;
}

/** How each source fared in the batch's 72-hour window (seeded, so the same for the same batch). */
export function sourceDiagnostics(
  pool: readonly PoolEvent[],
  index: number,
  asOfMs: number,
): SourceDiagnostics[] {
  return SOURCES.map((source) => {
    const seed = hashString(source.domain);
    const items = pool.filter((event) => event.source.domain === source.domain);
    const last = items[items.length - 1];
    const degraded = unit(mix(seed, 1, index)) < 0.1;
    const minutesBefore = 1 + Math.floor(unit(mix(seed, 2, index)) * 30);
    return {
      source: source.domain,
      source_name: source.name,
      source_category: source.category,
      source_tier: source.tier,
      state_affiliated: source.stateAffiliated,
      status: degraded ? 'degraded' : 'ok',
      last_fetch_at: new Date(asOfMs - minutesBefore * 60_000).toISOString(),
      last_item_at: last ? new Date(last.ts).toISOString() : null,
      items_24h: items.filter((event) => event.ts > asOfMs - 24 * HOUR_MS).length,
      items_72h: items.length,
      fetch_error_rate: round2((degraded ? 0.15 : 0.01) + unit(mix(seed, 3, index)) * 0.05),
      median_latency_ms: 120 + Math.floor(unit(mix(seed, 4, index)) * (degraded ? 2400 : 700)),
    };
  });
}
