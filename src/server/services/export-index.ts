import { countrySummarySchema, type CountrySummary } from '../../shared/bff-api.js';
import type { Country } from '../../shared/schemas/country.js';
import type { GlobalSummary } from '../../shared/schemas/global.js';
import { exportCountries, exportJsonSchema } from '../../shared/schemas/responses.js';
import { normaliseIso3 } from '../../shared/iso.js';
import type { CacheEntry } from '../cache/store.js';
import type { ExportValue } from './resources.js';

/** What the JSON export yields beyond its bytes: the whole batch, country by country. */
export interface ExportIndex {
  asOf: string;
  methodologyVersion: string | null;
  global: GlobalSummary | null;
  /** Null when the payload carries no usable `countries` array (fall back to the endpoints). */
  countries: Map<string, Country> | null;
  summaries: CountrySummary[];
}

/**
 * Indexes parsed once per cached export entry (and once after a restart), not once per request;
 * owned by the data service of one app, and dropped with their entries.
 */
export class ExportIndexes {
  readonly #indexes = new WeakMap<CacheEntry<ExportValue>, ExportIndex | null>();

  of(entry: CacheEntry<ExportValue>): ExportIndex | null {
    if (this.#indexes.has(entry)) return this.#indexes.get(entry) ?? null;
    const index = buildIndex(entry.value);
    this.#indexes.set(entry, index);
    return index;
  }
}

function buildIndex(value: ExportValue): ExportIndex | null {
  if (value.status !== 200) return null;
  let payload: unknown;
  try {
    payload = JSON.parse(value.text);
  } catch {
    return null;
  }
  const parsed = exportJsonSchema.safeParse(payload);
  if (!parsed.success) return null;
  const list = exportCountries(parsed.data);
  const countries = list ? new Map(list.map((c) => [normaliseIso3(c.iso), c])) : null;
  const summaries = (list ?? []).flatMap((country) => {
    const { events: _events, ...rest } = country;
    const summary = countrySummarySchema.safeParse(rest);
    return summary.success ? [summary.data] : [];
  });
  return {
    asOf: parsed.data.as_of,
    methodologyVersion: parsed.data.methodology_version ?? null,
    global: parsed.data.global ?? null,
    countries,
    summaries,
  };
}
