import type { FastifyBaseLogger } from 'fastify';
import type { RiskEvent } from '../../shared/schemas/event.js';
import type { CacheEntry } from '../cache/store.js';
import type { ExportIndexes } from '../services/upstream-resources/export-index.js';
import type {
  CountryValue,
  ExportValue,
  HotspotsValue,
} from '../services/upstream-resources/resource-specs.js';
import type { HistoryStore } from '../store/history-store.js';

/**
 * Archives every event the BFF receives: country details, hotspot rows fetched with
 * `include=events`, and the JSON export's countries. Writes run one after another in the
 * background (a request never waits for the archive); the store drops duplicates.
 */
export class EventArchiver {
  #queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: HistoryStore,
    private readonly now: () => number,
    private readonly logger: FastifyBaseLogger,
    private readonly exportIndexes: ExportIndexes,
  ) {}

  /** Takes a freshly fetched cache entry; archives the events it carries, if any. */
  receive(entry: CacheEntry): void {
    const batches = eventsOf(entry, this.exportIndexes);
    if (batches.length === 0) return;
    const seenAt = new Date(this.now());
    this.#queue = this.#queue.then(async () => {
      try {
        for (const [iso, events] of batches) {
          // PGlite settles its (synchronous) queries as microtasks: give sockets a turn.
          await new Promise((done) => setImmediate(done));
          await this.store.archiveEvents(iso, events, seenAt);
        }
      } catch (error) {
        this.logger.error({ err: error }, 'events could not be archived');
      }
    });
  }

  idle(): Promise<void> {
    return this.#queue;
  }
}

function eventsOf(entry: CacheEntry, indexes: ExportIndexes): Array<[string, RiskEvent[]]> {
  const found: Array<[string, RiskEvent[]]> = [];
  const add = (iso: string, events: RiskEvent[] | null | undefined): void => {
    if (events && events.length > 0) found.push([iso.toUpperCase(), events]);
  };
  if (entry.key.startsWith('country|')) {
    const value = entry.value as CountryValue;
    if (value.status === 200) add(value.data.country.iso, value.data.country.events);
  } else if (entry.key.startsWith('hotspots|') && entry.key.includes('events')) {
    const value = entry.value as HotspotsValue;
    if (value.status === 200) for (const row of value.data.hotspots) add(row.iso, row.events);
  } else if (entry.key === 'export|json') {
    const countries = indexes.of(entry as CacheEntry<ExportValue>)?.countries;
    for (const [iso, country] of countries ?? []) add(iso, country.events);
  }
  return found;
}
