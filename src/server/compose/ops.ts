import type { LookConfig } from '../config.js';
import type { FreshnessPolicy } from '../../shared/freshness.js';
import { CHECK_NOW_GAP_MS, type OpsRouteOptions } from '../routes/status.js';
import { buildStatus } from '../services/status/status.js';
import type { HistoryStore } from '../store/history-store.js';
import type { ReadinessHolds } from '../work/readiness.js';
import type { ResolvedUpstream } from './upstream.js';
import type { DataParts } from './data.js';
import type { History } from './history.js';
import type { Replicas } from './replicas.js';

/** What /api/status, /healthz, /readyz and /metrics read, from the parts composed before. */
export function opsOptions(
  upstream: ResolvedUpstream,
  parts: DataParts,
  more: {
    tiles: LookConfig['tiles'];
    policy: FreshnessPolicy;
    now: () => number;
    history: History | null;
    replicas: Replicas | null;
    historyStore: HistoryStore | null;
    /** Start-up work the pages wait for (the demo seed, the map sites are placed on). */
    holds: ReadinessHolds;
  },
): OpsRouteOptions {
  const { batch, cache, entries, client, quota, metrics, probe } = parts;
  const { history, replicas, historyStore } = more;
  return {
    metrics,
    checkNow: () => cache.checkNow(CHECK_NOW_GAP_MS),
    status: () => ({
      ...buildStatus({
        mode: upstream.mode,
        tiles: more.tiles,
        policy: more.policy,
        batch,
        cache,
        entries,
        client,
        quota,
        metrics,
        now: more.now,
      }),
      history: history?.coverage ?? null,
      cluster: replicas?.status() ?? null,
      store: historyStore?.health() ?? null,
    }),
    ready: () => {
      // A store that cannot keep what it is given is not ready, whatever data is in memory.
      const storeHealth = historyStore?.health();
      if (storeHealth?.health === 'failing') {
        return { ready: false, reason: storeHealth.message ?? 'The history store is failing' };
      }
      if (cache.peek(probe().key)) {
        const held = more.holds.reason();
        return held ? { ready: false, reason: held } : { ready: true, reason: '' };
      }
      // Readiness probes drive the first fetch, so an idle new instance becomes ready by itself.
      cache.refreshInBackground(probe());
      const error = client.health().lastError;
      return {
        ready: false,
        reason: `No data to serve yet${error ? `: ${error.message}` : '; fetching it now'}`,
      };
    },
  };
}
