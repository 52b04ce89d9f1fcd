import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { CacheEntry } from '../../src/server/cache/entries.js';
import { EventArchiver } from '../../src/server/jobs/event-archiver.js';
import { ExportIndexes } from '../../src/server/services/upstream-resources/export-index.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import type { RiskEvent } from '../../src/shared/schemas/event.js';

/** A store that fails like an unreachable PostgreSQL until `up` is set. */
function flakyStore() {
  const written: Array<{ iso: string; ids: string[] }> = [];
  const store = {
    up: false,
    written,
    async archiveEvents(iso: string, events: readonly RiskEvent[]): Promise<number> {
      if (!store.up) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
      written.push({ iso, ids: events.map((e) => String((e as { id?: unknown }).id)) });
      return events.length;
    },
  };
  return store;
}

function countryEntry(iso: string, ids: string[]): CacheEntry {
  return {
    key: `country|${iso}`,
    fetchedAt: 0,
    asOf: 0,
    size: 1,
    value: {
      status: 200,
      data: { country: { iso, events: ids.map((id) => ({ id, headline: `Event ${id}` })) } },
    },
  } as unknown as CacheEntry;
}

describe('the event archive while the store is down', () => {
  it('keeps what it could not write and writes it, in order, once the store is back', async () => {
    const store = flakyStore();
    let announced = 0;
    const archiver = new EventArchiver(
      store as unknown as HistoryStore,
      () => 0,
      pino({ level: 'silent' }),
      new ExportIndexes(),
      () => (announced += 1),
    );
    archiver.receive(countryEntry('UKR', ['u1', 'u2']));
    archiver.receive(countryEntry('SDN', ['s1']));
    await archiver.idle();
    expect(store.written).toEqual([]);
    expect(announced).toBe(0);

    store.up = true;
    archiver.retryFailed();
    await archiver.idle();
    expect(store.written).toEqual([
      { iso: 'UKR', ids: ['u1', 'u2'] },
      { iso: 'SDN', ids: ['s1'] },
    ]);
    expect(announced).toBe(1);
    // Written once: nothing is left to retry.
    archiver.retryFailed();
    await archiver.idle();
    expect(store.written).toHaveLength(2);
  });
});
