import { KNOWN_TIERS } from '../../../shared/tiers.js';
import type { Hotspot } from '../../../shared/schemas/hotspot.js';
import type { Loaded, MissGuard, ResourceCache } from '../../cache/resource-cache.js';
import type { CacheEntry } from '../../cache/entries.js';
import type { Metrics } from '../../metrics.js';
import type { UpstreamClient } from '../../upstream/client.js';
import { ClientLimitError } from '../../client-limit.js';
import { UpstreamError } from '../../upstream/errors.js';
import { parseCsvCountries, type CsvCountries } from '../upstream-resources/csv-countries.js';
import type { ExportIndex, ExportIndexes } from '../upstream-resources/export-index.js';
import { cacheHeaders, JSON_TYPE, servedJson, type Served } from '../rendering/render.js';
import {
  UPSTREAM_MAX_LIMIT,
  type CountryValue,
  type ExportFormat,
  type ExportValue,
  type HotspotsValue,
  type Rejection,
  type ResourceSpecs,
} from '../upstream-resources/resource-specs.js';

export interface HotspotsQuery {
  limit: number;
  /** Sorted, unique, validated labels; empty means all tiers. */
  tiers: string[];
  /** Sorted, unique items of `categories`, `events`. */
  include: string[];
}

/**
 * The answers to the Risk API's own questions (hotspots, a country, the country list, the
 * export), served from the cache under the budget strategy. Hotspots: always the widest page (50) per tier/include set, served narrow;
 * a tier filter is answered from the unfiltered page whenever that page provably holds the answer.
 * Country detail and the country list come from the JSON export (one request per batch for every
 * country) when it carries a `countries` array; otherwise from the documented endpoints.
 */
/** Labels remembered from the data; real data has a handful, this only guards against a flood. */
const MAX_SEEN_TIERS = 256;

/** A hotspot answer the upstream gave (not a rejection). */
type HotspotsOk = Extract<HotspotsValue, { status: 200 }>;

export class RiskAnswers {
  readonly #seenTiers = new Set<string>(KNOWN_TIERS);

  constructor(
    private readonly cache: ResourceCache,
    private readonly specs: ResourceSpecs,
    private readonly client: UpstreamClient,
    private readonly metrics: Metrics,
    private readonly now: () => number,
    /** Parsed JSON exports, shared with the batch recorder (one parse per export). */
    private readonly exportIndexes: ExportIndexes,
  ) {}

  /**
   * The hotspot answer when every entry it needs is fresh in the cache, without a promise (the
   * most frequent request's hot path, issue 35 item 10); null when `hotspots` must decide
   * anything (a miss, a refresh, a rejection, a stale answer).
   */
  freshHotspots(q: HotspotsQuery): Served | null {
    const base = this.cache.fresh(this.specs.hotspots([], q.include));
    if (!base || base.entry.value.status !== 200) return null;
    const plan = this.#hotspotPlan(base.entry as CacheEntry<HotspotsOk>, q);
    if (!plan.needsFiltered) return this.#hotspotsServed(base, q, plan.tiers);
    const filtered = this.cache.fresh(this.specs.hotspots(plan.tiers, q.include));
    if (!filtered || filtered.entry.value.status !== 200) return null;
    return this.#hotspotsServed(filtered, q, plan.tiers);
  }

  async hotspots(q: HotspotsQuery, guard: MissGuard): Promise<Served> {
    const base = await this.cache.load(this.specs.hotspots([], q.include), guard);
    if (base.entry.value.status !== 200) return this.#rejected('hotspots', base, base.entry.value);
    const plan = this.#hotspotPlan(base.entry as CacheEntry<HotspotsOk>, q);
    if (!plan.needsFiltered) return this.#hotspotsServed(base, q, plan.tiers);
    const filtered = await this.cache.load(this.specs.hotspots(plan.tiers, q.include), guard);
    const value = filtered.entry.value;
    if (value.status !== 200) return this.#rejected('hotspots', filtered, value);
    return this.#hotspotsServed(filtered, q, plan.tiers);
  }

  /**
   * Which tiers a hotspot question filters by, and whether the unfiltered page answers it.
   * Labels no batch has shown match nothing: they are dropped before anything is built or asked
   * for, so `tier=crit,<random>` is the same answer (and the same memo) as `tier=crit`, and a
   * flood of random labels creates no variants. They are never sent upstream either (an
   * upstream may reject unknown labels, as the demo does).
   */
  #hotspotPlan(
    base: CacheEntry<HotspotsOk>,
    q: HotspotsQuery,
  ): { tiers: string[]; needsFiltered: boolean } {
    const all = base.value.data.hotspots;
    this.#noteTiers(base, all);
    const tiers = q.tiers.filter((tier) => this.#seenTiers.has(tier));
    if (q.tiers.length === 0 || tiers.length === 0) return { tiers, needsFiltered: false };
    const matches = all.filter((h) => tiers.includes(h.tier ?? ''));
    // The upstream filters its one ordering, so the first matches of the top 50 are the first
    // matches overall once there are enough of them (or the 50 were everything).
    const complete = matches.length >= q.limit || all.length < UPSTREAM_MAX_LIMIT;
    return { tiers, needsFiltered: !complete };
  }

  /** The page of `source` (the unfiltered page, or the filtered one) a hotspot question asks. */
  #hotspotsServed(source: Loaded<HotspotsValue>, q: HotspotsQuery, tiers: string[]): Served {
    const data = (source.entry.value as HotspotsOk).data;
    const filtering = q.tiers.length > 0;
    const variant = `${q.limit}|${filtering ? `tier=${tiers.join(',')}` : 'all'}`;
    return this.#json('hotspots', source, variant, 200, () => {
      const rows = data.hotspots.filter((h) => !filtering || tiers.includes(h.tier ?? ''));
      const page = rows.slice(0, q.limit);
      return { ...data, count: page.length, hotspots: page };
    });
  }

  async country(iso: string, guard: MissGuard): Promise<Served> {
    const fromExport = await this.#exportIndex(guard);
    if (fromExport) {
      const { loaded, index } = fromExport;
      const country = index.countries?.get(iso);
      if (!country) {
        // The export is the whole payload: absent there means absent, no need to ask.
        return this.#json('country', loaded, `404|${iso}`, 404, () => ({
          ok: false,
          error: notInData(iso),
        }));
      }
      return this.#json('country', loaded, `country|${iso}`, 200, () => ({
        ok: true,
        as_of: index.asOf,
        country,
      }));
    }
    let loaded: Loaded<CountryValue>;
    try {
      loaded = await this.cache.load(this.specs.country(iso), guard);
    } catch (error) {
      const partial = this.#countryFromCsv(iso, error);
      if (partial) return partial;
      throw error;
    }
    const value = loaded.entry.value;
    if (value.status === 404) {
      return this.#json('country', loaded, '404', 404, () => ({
        ok: false,
        error: notInData(iso),
      }));
    }
    if (value.status !== 200) return this.#rejected('country', loaded, value);
    return this.#json('country', loaded, 'body', 200, () => value.data);
  }

  async countries(guard: MissGuard): Promise<Served> {
    const fromExport = await this.#exportIndex(guard);
    if (fromExport) {
      const { loaded, index } = fromExport;
      return this.#json('countries', loaded, 'countries', 200, () => ({
        ok: true,
        as_of: index.asOf,
        methodology_version: index.methodologyVersion,
        global: index.global,
        count: index.summaries.length,
        countries: index.summaries,
      }));
    }
    const loaded = await this.cache.load(this.specs.export('csv'), guard);
    const value = loaded.entry.value;
    if (value.status !== 200) return this.#rejected('countries', loaded, value);
    const parsed = this.#parseCsv(loaded.entry, value.text);
    if (parsed instanceof UpstreamError) throw parsed;
    return this.#json('countries', loaded, 'countries', 200, () => ({
      ok: true,
      as_of: parsed.asOf ?? new Date(loaded.entry.fetchedAt).toISOString(),
      methodology_version: parsed.methodologyVersion,
      global: parsed.globalIndex === null ? null : { ggri: parsed.globalIndex },
      count: parsed.countries.length,
      countries: parsed.countries,
    }));
  }

  /** The export file: the upstream's bytes, our headers, cached for the batch. */
  async exportFile(format: ExportFormat, guard: MissGuard): Promise<Served> {
    const loaded = await this.cache.load(this.specs.export(format), guard);
    const value = loaded.entry.value;
    if (value.status !== 200) return this.#rejected('export', loaded, value);
    const body = this.cache.derived(loaded.entry, 'bytes', () => Buffer.from(value.text, 'utf8'));
    // Named by the batch it holds (the fetch date when the export carried no date); built here,
    // never passed through from the upstream, whose headers are untrusted text.
    const day = new Date(loaded.entry.asOf ?? loaded.entry.fetchedAt).toISOString().slice(0, 10);
    const headers = cacheHeaders(loaded, this.now());
    headers['content-disposition'] = `attachment; filename="ggri-export-${day}.${format}"`;
    return this.#count('export', {
      status: 200,
      contentType: value.contentType,
      body,
      headers,
      outcome: loaded.outcome,
    });
  }

  async #exportIndex(
    guard: MissGuard,
  ): Promise<{ loaded: Loaded<ExportValue>; index: ExportIndex } | null> {
    const spec = this.specs.export('json');
    const cached = this.cache.peek<ExportValue>(spec.key);
    // This batch's export is known to lack countries: use the endpoints, spend nothing here.
    if (cached && !this.exportIndexes.of(cached)?.countries) {
      if (this.cache.classify(cached, this.now()) !== 'outdated') return null;
    }
    let loaded: Loaded<ExportValue>;
    try {
      loaded = await this.cache.load(spec, guard);
    } catch (error) {
      if (error instanceof UpstreamError && error.errorClass === 'malformed_response') return null;
      throw error;
    }
    const index = this.exportIndexes.of(loaded.entry);
    const countries = index?.countries;
    if (!index || !countries) return null;
    this.cache.derived(loaded.entry, 'tiers noted', () => {
      for (const country of countries.values()) this.#noteTier(country.tier);
      return true;
    });
    return { loaded, index };
  }

  /**
   * When the budget is spent (the key's hour, or this client's share), a country whose row is in
   * the cached CSV export (scores and every category) is answered from it rather than refused,
   * marked partial and stale: only its events are missing, and the note says until when.
   */
  #countryFromCsv(iso: string, error: unknown): Served | null {
    const quota =
      error instanceof ClientLimitError ||
      (error instanceof UpstreamError && error.errorClass === 'rate_limited');
    if (!quota) return null;
    const entry = this.cache.peek<ExportValue>(this.specs.export('csv').key);
    if (entry?.value.status !== 200) return null;
    const parsed = this.#parseCsv(entry, entry.value.text);
    if (parsed instanceof UpstreamError) return null;
    const row = parsed.countries.find((country) => country.iso === iso);
    if (!row) return null;
    const until = new Date(this.now() + Math.max(1000, error.retryAfterMs ?? 0));
    const reason = `events unavailable until ${until.toISOString().slice(11, 16)} UTC: upstream quota`;
    const loaded = { entry, outcome: 'stale' as const, staleReason: reason };
    const body = {
      ok: true,
      as_of: parsed.asOf ?? new Date(entry.fetchedAt).toISOString(),
      country: row,
      partial: true,
      stale: true,
      stale_reason: reason,
    };
    return this.#count('country', {
      status: 200,
      contentType: JSON_TYPE,
      body: Buffer.from(JSON.stringify(body)),
      headers: cacheHeaders(loaded, this.now()),
      outcome: 'stale',
    });
  }

  #parseCsv(entry: CacheEntry<ExportValue>, text: string): CsvCountries | UpstreamError {
    return this.cache.derived(entry, 'csv', (): CsvCountries | UpstreamError => {
      try {
        return parseCsvCountries(text);
      } catch {
        const failure = this.client.malformed(
          '/api/v1/export?format=csv',
          { status: 200, headers: {} },
          'CSV that could not be parsed',
        );
        this.client.recordFailure(failure);
        return failure;
      }
    });
  }

  #noteTiers(entry: CacheEntry, rows: Hotspot[]): void {
    this.cache.derived(entry, 'tiers noted', () => {
      for (const row of rows) this.#noteTier(row.tier);
      return true;
    });
  }

  #noteTier(tier: string | null | undefined): void {
    if (tier && this.#seenTiers.size < MAX_SEEN_TIERS) this.#seenTiers.add(tier);
  }

  #rejected(route: string, loaded: Loaded<unknown>, value: Rejection): Served {
    const error =
      value.status === 404 ? value.error : `The Risk API rejected the request: ${value.error}`;
    return this.#json(route, loaded, 'rejection', value.status, () => ({ ok: false, error }));
  }

  /** A JSON answer from a cached source, counted for the metrics. */
  #json(
    route: string,
    loaded: Loaded<unknown>,
    variant: string,
    status: number,
    build: () => Record<string, unknown>,
  ): Served {
    return this.#count(
      route,
      servedJson(loaded, this.cache.rendered, variant, status, build, this.now()),
    );
  }

  #count(route: string, served: Served): Served {
    if (served.outcome) this.metrics.countCache(route, served.outcome);
    return served;
  }
}

function notInData(iso: string): string {
  return `Country ${iso} is not in the current data (low baseline or no recent news)`;
}
