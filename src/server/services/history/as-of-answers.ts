import { LRUCache } from 'lru-cache';
import type { CountrySummary } from '../../../shared/bff-api.js';
import type { Country } from '../../../shared/schemas/country.js';
import type { RiskEvent } from '../../../shared/schemas/event.js';
import { MAX_COUNTRY_EVENTS } from '../../../shared/schemas/country.js';
import { BadRequest, NotFound } from '../../refusals.js';
import { countryRowFields } from '../../store/batch-chain.js';
import type { BatchRow, CountryRow, HistoryStore } from '../../store/history-store.js';
import type { HotspotsQuery } from '../risk-answers/risk-answers.js';

/** Batches whose rows are held at once (a person paging through a few past batches). */
const BATCHES_HELD = 8;

/** The batch an as-of question resolved to. */
export interface ResolvedBatch {
  batch: BatchRow;
  /** Its chain id (null only for a batch not chained yet). */
  id: string | null;
}

function summary(row: CountryRow, withCategories: boolean): CountrySummary {
  const { categories, ...fields } = countryRowFields(row);
  return {
    ...fields,
    name: row.name ?? row.iso,
    ...(withCategories ? { categories } : {}),
  };
}

/** Highest risk first (no risk last), then by code: the ranking as it stood in that batch. */
function byRisk(a: CountryRow, b: CountryRow): number {
  return (b.risk ?? -Infinity) - (a.risk ?? -Infinity) || (a.iso < b.iso ? -1 : 1);
}

/**
 * The dashboard's data answers as of a recorded batch, from the store alone: no upstream
 * request, whatever is asked. A time before the first batch is refused in words (an empty
 * answer would look like calm).
 */
export class AsOfAnswers {
  /**
   * Each batch's rows ranked by risk, by batch row id: a batch's rows never change once
   * recorded, so the countries, hotspots and country questions of one batch read them once.
   * Bounded: a few batches (~170 rows each) being looked at.
   */
  readonly #ranked = new LRUCache<number, Promise<CountryRow[]>>({ max: BATCHES_HELD });

  constructor(private readonly store: HistoryStore) {}

  /** The batch's rows, highest risk first (memoised per batch; a failed read is not kept). */
  #rows(batchId: number): Promise<CountryRow[]> {
    const held = this.#ranked.get(batchId);
    if (held) return held;
    const rows = this.store.countryRows(batchId).then((read) => read.sort(byRisk));
    this.#ranked.set(batchId, rows);
    rows.catch(() => {
      if (this.#ranked.get(batchId) === rows) this.#ranked.delete(batchId);
    });
    return rows;
  }

  /** The newest batch with country rows at or before `at`. */
  async resolve(at: Date): Promise<ResolvedBatch> {
    const batch = await this.store.batchAtOrBefore(at);
    if (!batch) {
      const since = this.store.lastCoverage.since;
      throw new BadRequest(
        since
          ? `as_of ${at.toISOString()} is before the first recorded batch (${since})`
          : `as_of ${at.toISOString()}: no batch is recorded yet`,
      );
    }
    const id = (await this.store.chainIds([batch.id])).get(batch.id) ?? null;
    return { batch, id };
  }

  #head({ batch, id }: ResolvedBatch) {
    return {
      ok: true as const,
      as_of: batch.asOf.toISOString(),
      batch_id: id,
      methodology_version: batch.methodologyVersion,
      global: batch.global,
    };
  }

  /**
   * The citable id of the batch recorded at exactly `asOf` (a file built from the latest data
   * names its batch), or null: not recorded (yet), or not chained yet.
   */
  async batchIdAt(asOf: string): Promise<string | null> {
    const at = new Date(asOf);
    if (Number.isNaN(at.getTime())) return null;
    const batch = await this.store.batchAtOrBefore(at);
    if (!batch || batch.asOf.getTime() !== at.getTime()) return null;
    return (await this.store.chainIds([batch.id])).get(batch.id) ?? null;
  }

  /**
   * Each country's risk change from the batch recorded before the one at exactly `asOf` to it
   * (issue 33, point 1: the headline change is ours where both batches are recorded), by ISO
   * code; null when `asOf` is not a recorded batch or none is recorded before it.
   */
  async recordedRiskDeltas(asOf: string): Promise<Map<string, number> | null> {
    const at = new Date(asOf);
    if (Number.isNaN(at.getTime())) return null;
    const to = await this.store.batchAtOrBefore(at);
    if (!to || to.asOf.getTime() !== at.getTime()) return null;
    const from = await this.store.batchAtOrBefore(new Date(at.getTime() - 1));
    if (!from) return null;
    const [now, then] = await Promise.all([this.#rows(to.id), this.#rows(from.id)]);
    const before = new Map(then.map((row) => [row.iso, row.risk]));
    const deltas = new Map<string, number>();
    for (const row of now) {
      const old = before.get(row.iso);
      if (typeof row.risk === 'number' && typeof old === 'number') {
        deltas.set(row.iso, row.risk - old);
      }
    }
    return deltas;
  }

  /** `/api/countries?as_of=`. */
  async countries(at: Date): Promise<object> {
    const resolved = await this.resolve(at);
    const rows = await this.#rows(resolved.batch.id);
    return {
      ...this.#head(resolved),
      count: rows.length,
      countries: rows.map((row) => summary(row, true)),
    };
  }

  /** `/api/v1/hotspots?as_of=`: ranked by risk as recorded; events are not part of a batch. */
  async hotspots(at: Date, query: HotspotsQuery): Promise<object> {
    const resolved = await this.resolve(at);
    const rows = (await this.#rows(resolved.batch.id))
      .filter((row) => query.tiers.length === 0 || query.tiers.includes(row.tier ?? ''))
      .slice(0, query.limit);
    const withCategories = query.include.includes('categories');
    return {
      ...this.#head(resolved),
      count: rows.length,
      hotspots: rows.map((row) => summary(row, withCategories)),
    };
  }

  /** `/api/v1/country/:iso?as_of=`: the country's numbers then, with the events archived by then. */
  async country(at: Date, iso: string): Promise<object> {
    const resolved = await this.resolve(at);
    const row = (await this.#rows(resolved.batch.id)).find((r) => r.iso === iso);
    if (!row) {
      throw new NotFound(`${iso} is not in the batch of ${resolved.batch.asOf.toISOString()}`);
    }
    const events = await this.store.events({
      isos: [iso],
      q: null,
      from: null,
      to: resolved.batch.asOf,
      role: null,
      breaking: null,
      before: null,
      limit: MAX_COUNTRY_EVENTS,
    });
    const country: Country = {
      ...summary(row, true),
      events: events.map(
        (event) =>
          ({ ...event.payload, ts: event.ts.toISOString(), headline: event.headline }) as RiskEvent,
      ),
    };
    const { ok, as_of, batch_id } = this.#head(resolved);
    return { ok, as_of, batch_id, country };
  }
}
