import {
  selectBatchAtOrBefore,
  selectCountryRows,
  type BatchRow,
  type CountryRow,
} from '../../store/batches.js';
import type { HistoryStore } from '../../store/history-store.js';

export interface BatchCountries {
  batch: BatchRow;
  byIso: Map<string, CountryRow>;
}

/**
 * Country rows of recorded batches, read once per store revision: the newest, and the newest at
 * or before a time (what "since 24 h" compares with). A new batch drops them all.
 */
export class BatchCountriesMemo {
  #revision = -1;
  readonly #held = new Map<string, Promise<BatchCountries | null>>();

  constructor(private readonly store: HistoryStore) {}

  /** The newest batch with country rows at or before `at` (the newest of all when null). */
  at(at: Date | null): Promise<BatchCountries | null> {
    if (this.store.batchRevision !== this.#revision) {
      this.#held.clear();
      this.#revision = this.store.batchRevision;
    }
    const key = at?.toISOString() ?? 'latest';
    let found = this.#held.get(key);
    if (!found) {
      found = this.#read(at);
      // At most the few times an answer asks for (latest, previous, 24 h, 7 d) per revision.
      if (this.#held.size >= 16) this.#held.clear();
      this.#held.set(key, found);
      found.catch(() => this.#held.delete(key));
    }
    return found;
  }

  async #read(at: Date | null): Promise<BatchCountries | null> {
    const batch = await selectBatchAtOrBefore(this.store.db, at);
    if (!batch) return null;
    const rows = await selectCountryRows(this.store.db, batch.id);
    return { batch, byIso: new Map(rows.map((row) => [row.iso.trim(), row])) };
  }
}
