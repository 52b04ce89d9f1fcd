import { setImmediate as nextTurn } from 'node:timers/promises';
import { pastBatches, type PastBatch } from '../../demo-upstream/history-seed.js';
import { startDemoUpstream, type DemoUpstream } from '../../demo-upstream/server.js';
import type { UpstreamConfig } from '../config.js';
import { releaseMemory } from '../release-memory.js';
import { Secret } from '../secret.js';
import type { BatchRecord } from '../store/batches.js';
import type { HistoryStore } from '../store/history-store.js';
import type { ResolvedUpstream } from './upstream.js';

export async function resolveUpstream(
  config: UpstreamConfig,
): Promise<{ upstream: ResolvedUpstream; demo: DemoUpstream | null }> {
  if (config.mode === 'live') {
    const { baseUrl, apiKey } = config;
    return { upstream: { mode: 'live', baseUrl, apiKey }, demo: null };
  }
  // No key configured: run our stand-in for the Risk API on a loopback port and talk to it over
  // HTTP exactly as to the real service, with a freshly issued key of the configured tier.
  const demo = await startDemoUpstream({ host: '127.0.0.1', port: 0 });
  const apiKey = new Secret(demo.issueKey(config.demoTier));
  return { upstream: { mode: 'demo', baseUrl: demo.url, apiKey }, demo };
}

/** A past batch of the demo generator as the store records it: marked demo, from the seed. */
export function demoSeedRecord(batch: PastBatch): BatchRecord {
  return {
    asOf: new Date(batch.asOf),
    methodologyVersion: batch.methodologyVersion,
    global: batch.global,
    source: 'demo_seed',
    demo: true,
    countries: batch.countries,
  };
}

// Demo mode: 90 days of past batches (two a day) from the demo generator, marked demo, so trends
// and "What changed" show on first start. Idempotent: a restart generates only what is missing.
const SEED_BATCHES = 180;
const SEED_BATCHES_PER_COLLECTION = 10;

/** `collect` frees the seed's dead objects (a full collection); a test hands its own. */
export async function seedDemoHistory(
  store: Pick<HistoryStore, 'batches' | 'recordBatch'>,
  now: number,
  stopping: () => boolean,
  collect: () => void = releaseMemory,
): Promise<number> {
  const have = await store.batches({ from: new Date(now - 100 * 86_400_000), to: null });
  const recorded = new Set(have.filter((b) => b.countryCount > 0).map((b) => b.asOf.getTime()));
  let added = 0;
  for (const batch of pastBatches(now, SEED_BATCHES, { wanted: (t) => !recorded.has(t) })) {
    if (stopping()) break;
    // PGlite runs queries synchronously and settles them as microtasks: without a turn of the
    // event loop between batches, the seed would starve every socket for its whole duration.
    await new Promise((done) => setImmediate(done));
    await store.recordBatch(demoSeedRecord(batch));
    added += 1;
    // A seed's dead objects freed as it goes, so the heap never grows to hold them (issue 18).
    // In a turn of its own: a request that came in while the batch was written is answered
    // before the collection (about 75 ms at 86 MB of heap) rather than after both.
    if (added % SEED_BATCHES_PER_COLLECTION === 0) {
      await nextTurn();
      collect();
    }
  }
  return added;
}
