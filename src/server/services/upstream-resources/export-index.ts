import { countrySummarySchema, type CountrySummary } from '../../../shared/bff-api.js';
import type { Country } from '../../../shared/schemas/country.js';
import type { GlobalSummary } from '../../../shared/schemas/global.js';
import {
  exportCountries,
  exportJsonSchema,
  type ExportJson,
} from '../../../shared/schemas/responses.js';
import { normaliseIso3 } from '../../../shared/iso.js';
import type { CacheEntry } from '../../cache/entries.js';
import type { ExportValue } from './resource-values.js';

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
 * Indexes of the JSON export, built once per fetched export (and once after a restart), not once
 * per request; owned by one app (the data service and the history jobs read them), and dropped
 * with their values. Keyed by the cached value, which a revalidated entry keeps.
 *
 * The export is parsed once: the resource spec that fetched it hands over the payload it already
 * parsed and checked (`remember`), and the index is built from that when first asked for. Only a
 * value read back from the cache file is parsed here.
 */
export class ExportIndexes {
  readonly #indexes = new WeakMap<ExportValue, ExportIndex | null>();
  /** Payloads parsed at fetch time, until their index is built (then dropped). */
  readonly #payloads = new WeakMap<ExportValue, ExportJson | null>();

  /** The fetch's parse of `value.text` (null: not the export's shape). */
  remember(value: ExportValue, payload: ExportJson | null): void {
    this.#payloads.set(value, payload);
  }

  of(entry: CacheEntry<ExportValue>): ExportIndex | null {
    const value = entry.value;
    if (this.#indexes.has(value)) return this.#indexes.get(value) ?? null;
    const payload = this.#payloads.has(value) ? this.#payloads.get(value) : parsePayload(value);
    const index = payload ? buildIndex(payload) : null;
    this.#indexes.set(value, index);
    this.#payloads.delete(value);
    return index;
  }
}

function parsePayload(value: ExportValue): ExportJson | null {
  if (value.status !== 200) return null;
  let payload: unknown;
  try {
    payload = JSON.parse(value.text);
  } catch {
    return null;
  }
  const parsed = exportJsonSchema.safeParse(payload);
  return parsed.success ? parsed.data : null;
}

function buildIndex(data: ExportJson): ExportIndex {
  const list = exportCountries(data);
  const countries = list ? new Map(list.map((c) => [normaliseIso3(c.iso), c])) : null;
  const summaries = (list ?? []).flatMap((country) => {
    const { events: _events, ...rest } = country;
    const summary = countrySummarySchema.safeParse(rest);
    return summary.success ? [summary.data] : [];
  });
  return {
    asOf: data.as_of,
    methodologyVersion: data.methodology_version ?? null,
    global: data.global ?? null,
    countries,
    summaries,
  };
}
