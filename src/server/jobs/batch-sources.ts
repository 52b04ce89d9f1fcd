import type { CountrySummary } from '../../shared/bff-api.js';
import type { GlobalSummary } from '../../shared/schemas/global.js';
import { globalSummarySchema } from '../../shared/schemas/global.js';
import { parseAsOf } from '../cache/batch.js';
import type { CacheEntry } from '../cache/entries.js';
import { parseCsvCountries } from '../services/upstream-resources/csv-countries.js';
import type { ExportIndexes } from '../services/upstream-resources/export-index.js';
import type { ExportValue, HotspotsValue } from '../services/upstream-resources/resource-specs.js';
import type { BatchRecord } from '../store/history-store.js';

/** A batch as the recorder found it, before the store decides whether it is new. */
export type Found = Omit<BatchRecord, 'asOf' | 'demo'> & { asOf: number };

/** The JSON export's countries (array or keyed by ISO), when the entry is of batch `asOf`. */
export function fromJsonExport(
  entry: CacheEntry<ExportValue> | undefined,
  asOf: number,
  indexes: ExportIndexes,
): Found | null {
  if (!entry || entry.asOf !== asOf) return null;
  const index = indexes.of(entry);
  if (!index?.countries || index.summaries.length === 0) return null;
  return {
    asOf,
    methodologyVersion: index.methodologyVersion,
    global: index.global,
    source: 'export_json',
    countries: index.summaries,
  };
}

/** The CSV export's rows, when it is of batch `asOf` and has any. */
export function fromCsvExport(
  entry: CacheEntry<ExportValue> | undefined,
  asOf: number,
  global: GlobalSummary | null,
): Found | null {
  if (!entry || entry.value.status !== 200) return null;
  let parsed;
  try {
    parsed = parseCsvCountries(entry.value.text);
  } catch {
    return null;
  }
  if (parseAsOf(parsed.asOf) !== asOf || parsed.countries.length === 0) return null;
  return {
    asOf,
    methodologyVersion: parsed.methodologyVersion,
    global: global ?? (parsed.globalIndex === null ? null : { ggri: parsed.globalIndex }),
    source: 'export_csv',
    countries: parsed.countries,
  };
}

/** The hotspot list (top 50 only): the last resort, and the history says so. */
export function fromHotspots(
  entry: CacheEntry<HotspotsValue> | undefined,
  asOf: number,
): Found | null {
  if (!entry || entry.asOf !== asOf || entry.value.status !== 200) return null;
  const data = entry.value.data;
  const countries: CountrySummary[] = data.hotspots.map(({ events: _events, ...row }) => row);
  if (countries.length === 0) return null;
  return {
    asOf,
    methodologyVersion: data.methodology_version ?? null,
    global: data.global ?? null,
    source: 'hotspots',
    countries,
  };
}

/** The hotspot list's global summary when it is of batch `asOf` (richer than the CSV's). */
export function hotspotsGlobal(
  entry: CacheEntry<HotspotsValue> | undefined,
  asOf: number,
): GlobalSummary | null {
  if (!entry || entry.asOf !== asOf || entry.value.status !== 200) return null;
  return entry.value.data.global ?? null;
}

/**
 * `feed_history` of the JSON export, when it reads as earlier global values: an array of objects
 * each with a parseable `as_of` and a numeric `ggri` (or `index`). Anything else is ignored: the
 * document does not describe it, so nothing is guessed.
 */
export function feedHistoryPoints(
  entry: CacheEntry<ExportValue> | undefined,
  before: number,
): Found[] {
  if (!entry || entry.value.status !== 200) return [];
  let payload: unknown;
  try {
    payload = JSON.parse(entry.value.text);
  } catch {
    return [];
  }
  const feed = (payload as { feed_history?: unknown } | null)?.feed_history;
  if (!Array.isArray(feed)) return [];
  return feed.flatMap((item: unknown): Found[] => {
    if (item === null || typeof item !== 'object') return [];
    const record = item as Record<string, unknown>;
    const asOf = parseAsOf(typeof record.as_of === 'string' ? record.as_of : null);
    const global = globalSummarySchema.safeParse(record);
    const value = global.success ? (global.data.ggri ?? global.data.index) : null;
    if (asOf === null || asOf >= before || typeof value !== 'number' || !global.success) return [];
    return [
      {
        asOf,
        methodologyVersion:
          typeof record.methodology_version === 'string' ? record.methodology_version : null,
        global: {
          ggri: value,
          tier: global.data.tier ?? null,
          events_24h: global.data.events_24h ?? null,
        },
        source: 'feed_history',
        countries: [],
        tierCounts: tierCounts(record.counts),
      },
    ];
  });
}

function tierCounts(raw: unknown): Record<string, number> | null {
  if (raw === null || typeof raw !== 'object') return null;
  const counts = Object.entries(raw).filter(
    (pair): pair is [string, number] => pair[0] !== 'countries' && Number.isInteger(pair[1]),
  );
  return counts.length > 0 ? Object.fromEntries(counts) : null;
}
