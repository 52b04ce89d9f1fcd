import type { StatusResponse } from '../../../shared/bff-api.js';
import { nextBatchDue, type FreshnessPolicy } from '../../../shared/freshness.js';
import type { BatchTracker } from '../../cache/batch.js';
import type { ResourceCache } from '../../cache/resource-cache.js';
import type { CacheEntries } from '../../cache/entries.js';
import type { LookConfig } from '../../config.js';
import type { Metrics } from '../../metrics.js';
import type { UpstreamClient } from '../../upstream/client.js';
import type { QuotaGovernor } from '../../upstream/quota.js';

/** A recent failure (within this long) keeps health at "degraded" after a success. */
const DEGRADED_FOR_MS = 15 * 60_000;

export interface StatusSources {
  mode: 'demo' | 'live';
  tiles: LookConfig['tiles'];
  policy: FreshnessPolicy;
  batch: BatchTracker;
  cache: ResourceCache;
  entries: CacheEntries;
  client: UpstreamClient;
  quota: QuotaGovernor;
  metrics: Metrics;
  now: () => number;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

function clock(ms: number): string {
  return `${new Date(ms).toISOString().slice(11, 16)} UTC`;
}

/** `/api/status`: everything an operator or the SPA needs to judge the data; no secret. */
export function buildStatus(s: StatusSources): StatusResponse {
  const now = s.now();
  const health = s.client.health();
  const blockedUntil = s.quota.blockedUntil();
  const lastError = health.lastError;
  let state: StatusResponse['upstream']['health'] = 'ok';
  let message: string | null = null;
  if (lastError && health.lastOutcome === 'error') {
    const cls = lastError.class;
    state = cls === 'rate_limited' ? 'degraded' : 'down';
    if (cls === 'key_rejected' || cls === 'no_api_access') message = lastError.message;
    else if (cls === 'rate_limited') {
      message =
        blockedUntil === null
          ? lastError.message
          : `The Risk API's hourly limit for this key is reached; it will be asked again after ${clock(blockedUntil)}. Cached data is shown meanwhile.`;
    } else if (cls === 'malformed_response') {
      message = `The Risk API sent an answer that could not be read; cached data is shown meanwhile. (${lastError.message})`;
    } else {
      message = `The Risk API cannot be reached right now; cached data is shown meanwhile. (${lastError.message})`;
    }
  } else if (blockedUntil !== null) {
    state = 'degraded';
    message = `The Risk API's hourly limit for this key is reached; it will be asked again after ${clock(blockedUntil)}.`;
  } else if (lastError && now - lastError.at < DEGRADED_FOR_MS) {
    state = 'degraded';
    message = `The Risk API failed recently (${lastError.message}) but answers again.`;
  }

  const nextCheck = s.cache.nextCheckAt();
  // A policy without batch hours (the fast batch clock in tests) has no schedule to announce.
  const nextDue = nextBatchDue(now, s.policy);
  const { latestAsOfText, methodologyVersion, confirmedAt } = s.batch.state;
  return {
    ok: true,
    mode: s.mode,
    as_of: latestAsOfText,
    methodology_version: methodologyVersion,
    last_checked_at: iso(confirmedAt),
    next_check_at: iso(nextCheck === null ? null : Math.max(nextCheck, blockedUntil ?? 0)),
    next_batch_due_at: new Date(Number.isFinite(nextDue) ? nextDue : now).toISOString(),
    upstream: {
      health: state,
      last_error: lastError
        ? {
            class: lastError.class,
            message: lastError.message,
            at: new Date(lastError.at).toISOString(),
            status: lastError.status,
          }
        : null,
      message,
    },
    quota: {
      limit: s.quota.limit(),
      remaining: s.quota.remaining(),
      used_last_60min: s.quota.usedLast60Min(),
      reserve: s.quota.effectiveReserve(),
      blocked_until: iso(blockedUntil),
    },
    tiles: s.tiles,
    cache: {
      entries: s.entries.size,
      hits: s.metrics.totals.hits,
      misses: s.metrics.totals.misses,
      stale_serves: s.metrics.totals.stale,
    },
  };
}
