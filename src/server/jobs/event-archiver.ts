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
import { JobLoop } from './job-loop.js';

interface Pending {
  iso: string;
  events: RiskEvent[];
  seenAt: Date;
}

/** Countries' event lists kept for a later write while the store is down (a few exports' worth). */
const MAX_FAILED = 2000;

/**
 * Archives every event the BFF receives: country details, hotspot rows fetched with
 * `include=events`, and the JSON export's countries. Writes run one at a time in the background
 * (a request never waits for the archive); what arrives during a write goes in the next one; the
 * store drops duplicates.
 */
export class EventArchiver {
  /** Writes run on a job loop (jobs/job-loop.ts): one at a time, asks while one runs coalesced. */
  readonly #writes: JobLoop<void>;
  /** Received and not yet taken by a write. */
  readonly #received: Pending[] = [];
  readonly #failed: Pending[] = [];

  constructor(
    private readonly store: HistoryStore,
    private readonly now: () => number,
    private readonly logger: FastifyBaseLogger,
    private readonly exportIndexes: ExportIndexes,
    /** Told after writes that added events (replicas: the others' answers changed). */
    private readonly onArchived: () => void = () => {},
  ) {
    // A write never fails as a whole: what it could not write is kept for the next.
    this.#writes = new JobLoop({ name: 'event archive', run: () => this.#write(), logger });
  }

  /** Takes a freshly fetched cache entry; archives the events it carries, if any. */
  receive(entry: CacheEntry): void {
    const batches = eventsOf(entry, this.exportIndexes);
    if (batches.length === 0) return;
    const seenAt = new Date(this.now());
    this.#received.push(...batches.map(([iso, events]) => ({ iso, events, seenAt })));
    this.#writes.kick();
  }

  /** Writes again what could not be written (the store was down); the next receive does too. */
  retryFailed(): void {
    if (this.#failed.length > 0) this.#writes.kick();
  }

  async #write(): Promise<void> {
    const todo = [...this.#failed.splice(0), ...this.#received.splice(0)];
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
  }

  idle(): Promise<void> {
    return this.#writes.idle();
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
