import type { CategoryName } from '../shared/categories.js';
import type { CategoryScores, CountryScores } from './scores.js';

/** The shapes the demo upstream sends (field order here is the order on the wire). */

export interface EventOut {
  ts: string;
  headline: string;
  url: string;
  source: string;
  source_name: string;
  source_category: string;
  source_tier: string;
  role: 'locus' | 'actor';
  breaking: boolean;
  state_affiliated: boolean;
}

export interface HotspotOut {
  iso: string;
  name: string;
  lat: number;
  lng: number;
  risk: number;
  tier: string;
  static: number;
  active: number;
  delta_active: number;
  delta_headline: number;
  confidence: number;
  profile: string;
  threat_vectors: string[];
  source_count: number;
}

export interface CountryOut extends HotspotOut {
  categories: Record<CategoryName, CategoryScores>;
  events: EventOut[];
}

export interface GlobalOut {
  ggri: number;
  tier: string;
  delta_vs_yesterday: number;
  static: number;
  active: number;
  events_24h: number;
}

export interface TierCounts {
  countries: number;
  crit: number;
  high: number;
  mod: number;
  low: number;
}

export interface FeedHistoryEntry {
  as_of: string;
  methodology_version: string;
  status: 'ok';
  ggri: number;
  tier: string;
  counts: TierCounts;
  events_ingested: number;
  duration_ms: number;
}

export interface SourceDiagnostics {
  source: string;
  source_name: string;
  source_category: string;
  source_tier: string;
  state_affiliated: boolean;
  status: 'ok' | 'degraded';
  last_fetch_at: string;
  last_item_at: string | null;
  items_24h: number;
  items_72h: number;
  fetch_error_rate: number;
  median_latency_ms: number;
}

export interface Batch {
  index: number;
  asOfMs: number;
  asOf: string;
  /** The method that scored it (a method change fault serves a new one, method-change.ts). */
  methodologyVersion: string;
  global: GlobalOut;
  counts: TierCounts;
  /** Ranked: risk descending, then ISO; the order of the hotspot list. */
  countries: CountryOut[];
  byIso: ReadonlyMap<string, CountryOut>;
  feedHistory: FeedHistoryEntry[];
  sources: SourceDiagnostics[];
}

/** Scores of every country in one batch, with the global aggregates (no events). */
export interface BatchScores {
  byIso: ReadonlyMap<string, CountryScores>;
  global: { ggri: number; static: number; active: number };
  counts: TierCounts;
}
