import type { FastifyBaseLogger } from 'fastify';
import type { RiskEvent } from '../../shared/schemas/event.js';
import type { CacheEntry } from '../cache/entries.js';
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
interface Pending {
  iso: string;
  events: RiskEvent[];
  seenAt: Date;
}

/** Countries' event lists kept for a later write while the store is down (a few exports' worth). */
const MAX_FAILED = 2000;

export class EventArchiver {
  #queue: Promise<void> = Promise.resolve();
  readonly #failed: Pending[] = [];

  constructor(
    private readonly store: HistoryStore,
    private readonly now: () => number,
    private readonly logger: FastifyBaseLogger,
    private readonly exportIndexes: ExportIndexes,
    /** Told after writes that added events (replicas: the others' answers changed). */
    private readonly onArchived: () => void = () => {},
  ) {}

  /** Takes a freshly fetched cache entry; archives the events it carries, if any. */
  receive(entry: CacheEntry): void {
    const batches = eventsOf(entry, this.exportIndexes);
    if (batches.length === 0) return;
    const seenAt = new Date(this.now());
    this.#write(batches.map(([iso, events]) => ({ iso, events, seenAt })));
  }

  /** Writes again what could not be written (the store was down); the next receive does too. */
  retryFailed(): void {
    if (this.#failed.length > 0) this.#write([]);
  }

  #write(received: Pending[]): void {
    this.#queue = this.#queue.then(async () => {
      const todo = [...this.#failed.splice(0), ...received];
      let added = 0;
      for (const [index, item] of todo.entries()) {
        try {
          // PGlite settles its (synchronous) queries as microtasks: give sockets a turn.
          await new Promise((done) => setImmediate(done));
          added += await this.store.archiveEvents(item.iso, item.events, item.seenAt);
        } catch (error) {
          // Kept for the next write (bounded: the oldest go first), so an outage of the store
          // loses no event the BFF received meanwhile.
          this.#failed.push(...todo.slice(index));
          this.#failed.splice(0, Math.max(0, this.#failed.length - MAX_FAILED));
          this.logger.error(
            { err: error, waiting: this.#failed.length },
            'events could not be archived yet',
          );
          break;
        }
      }
      if (added > 0) this.onArchived();
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
