import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { BatchTracker } from '../../src/server/cache/batch.js';
import { CacheEntries } from '../../src/server/cache/entries.js';
import {
  ResourceCache,
  type AnswerSource,
  type Fetched,
  type ResourceSpec,
} from '../../src/server/cache/resource-cache.js';
import { UpstreamError } from '../../src/server/upstream/errors.js';
import { DEFAULT_FRESHNESS } from '../../src/shared/freshness.js';

/*
 * The cache's refund path (resource-cache.ts #fetchNow, issue 30 point 7): a client's cache miss
 * is counted by its guard, and given back (the guard's refund called once) exactly when the miss
 * sent nothing on the client's account: it joined a fetch already under way, the answer was
 * another replica's, or the upstream call was refused before it was sent (back-off, a
 * remembered 401). A miss that sent a request, or failed for another reason, keeps its count.
 */
const NOW = Date.parse('2026-11-22T12:00:00Z');
const BATCH = '2026-11-22T10:00:00Z';

function spec(key: string, fetch: () => Promise<Fetched<string>>): ResourceSpec<string> {
  return { key, fetch };
}
const answer = (): Promise<Fetched<string>> =>
  Promise.resolve({ value: 'v', asOfText: BATCH, size: 1 });

function newCache(source?: AnswerSource): ResourceCache {
  return new ResourceCache(
    new CacheEntries(100, 1_000_000),
    new BatchTracker(),
    DEFAULT_FRESHNESS,
    () => NOW,
    () => spec('probe', answer),
    pino({ level: 'silent' }) as unknown as FastifyBaseLogger,
    source,
  );
}

/** A guard that counts its calls and the refunds it is given back. */
function countingGuard(async = false) {
  const counts = { calls: 0, refunds: 0 };
  const refund = () => {
    counts.refunds += 1;
  };
  const guard = () => {
    counts.calls += 1;
    return async ? Promise.resolve(refund) : refund;
  };
  return { counts, guard };
}

describe('the refund of a cache miss', () => {
  it.each([false, true])('a miss that fetched keeps its count (guard async: %s)', async (async) => {
    const cache = newCache();
    const { counts, guard } = countingGuard(async);
    const loaded = await cache.load(spec('a', answer), guard);
    expect(loaded.outcome).toBe('miss');
    expect(counts).toEqual({ calls: 1, refunds: 0 });
    // A hit asks no guard at all.
    expect((await cache.load(spec('a', answer), guard)).outcome).toBe('hit');
    expect(counts).toEqual({ calls: 1, refunds: 0 });
  });

  it.each([false, true])(
    'a miss the upstream client refused before sending is refunded once (guard async: %s)',
    async (async) => {
      const cache = newCache();
      const { counts, guard } = countingGuard(async);
      const unsent = new UpstreamError('server_error', 'backing off', 503, 1000, false);
      await expect(
        cache.load(
          spec('b', () => Promise.reject(unsent)),
          guard,
        ),
      ).rejects.toBe(unsent);
      expect(counts).toEqual({ calls: 1, refunds: 1 });
    },
  );

  it('a miss whose request was sent and failed keeps its count, and so does a bug', async () => {
    const cache = newCache();
    const { counts, guard } = countingGuard();
    const sent = new UpstreamError('server_error', 'the Risk API answered 503', 503);
    await expect(
      cache.load(
        spec('c', () => Promise.reject(sent)),
        guard,
      ),
    ).rejects.toBe(sent);
    expect(counts).toEqual({ calls: 1, refunds: 0 });
    const bug = new Error('a bug');
    await expect(
      cache.load(
        spec('d', () => Promise.reject(bug)),
        guard,
      ),
    ).rejects.toBe(bug);
    expect(counts).toEqual({ calls: 2, refunds: 0 });
  });

  it("a miss answered by another replica's fetch is refunded once; a fetch of its own is not", async () => {
    let adopted = true;
    const source: AnswerSource = {
      fetch: <V>(s: ResourceSpec<V>) =>
        adopted
          ? Promise.resolve({
              value: 'shared' as V,
              asOfText: BATCH,
              size: 1,
              fetchedAt: NOW - 1000,
            })
          : s.fetch('interactive'),
    };
    const cache = newCache(source);
    const { counts, guard } = countingGuard();
    expect((await cache.load(spec('e', answer), guard)).entry.value).toBe('shared');
    expect(counts).toEqual({ calls: 1, refunds: 1 });
    adopted = false;
    expect((await cache.load(spec('f', answer), guard)).entry.value).toBe('v');
    expect(counts).toEqual({ calls: 2, refunds: 1 });
  });

  it('a miss that joins a fetch begun while its guard was deciding is refunded once', async () => {
    const cache = newCache();
    let letThrough: (refund: () => void) => void = () => {};
    const counts = { calls: 0, refunds: 0 };
    const slowGuard = () => {
      counts.calls += 1;
      return new Promise<() => void>((resolve) => {
        letThrough = resolve;
      });
    };
    let release: () => void = () => {};
    let fetches = 0;
    const slow = spec('g', () => {
      fetches += 1;
      return new Promise((resolve) => {
        release = () => resolve({ value: 'v', asOfText: BATCH, size: 1 });
      });
    });
    const loading = cache.load(slow, slowGuard);
    await Promise.resolve();
    // While the guard decides, a background refresh of the same key starts the fetch.
    cache.refreshInBackground(slow);
    letThrough(() => {
      counts.refunds += 1;
    });
    await new Promise((resolve) => setImmediate(resolve));
    release();
    const loaded = await loading;
    expect(loaded.entry.value).toBe('v');
    expect(fetches).toBe(1);
    expect(counts).toEqual({ calls: 1, refunds: 1 });
  });

  it('a joined miss that fails is refunded once, not twice', async () => {
    const cache = newCache();
    let letThrough: (refund: () => void) => void = () => {};
    const counts = { refunds: 0 };
    const slowGuard = () =>
      new Promise<() => void>((resolve) => {
        letThrough = resolve;
      });
    let fail: () => void = () => {};
    const unsent = new UpstreamError('server_error', 'backing off', 503, 1000, false);
    const failing = spec(
      'h',
      () => new Promise((_resolve, reject) => (fail = () => reject(unsent))),
    );
    const loading = cache.load(failing, slowGuard);
    await Promise.resolve();
    cache.refreshInBackground(failing);
    letThrough(() => {
      counts.refunds += 1;
    });
    await new Promise((resolve) => setImmediate(resolve));
    fail();
    await expect(loading).rejects.toBe(unsent);
    expect(counts.refunds).toBe(1);
  });

  it("a second miss waits for the first one's guard, then joins its fetch uncounted", async () => {
    const cache = newCache();
    const { counts, guard } = countingGuard(true);
    let fetches = 0;
    const counted = spec('i', () => {
      fetches += 1;
      return answer();
    });
    const [first, second] = await Promise.all([
      cache.load(counted, guard),
      cache.load(counted, guard),
    ]);
    expect(first.entry).toBe(second.entry);
    expect(fetches).toBe(1);
    expect(counts).toEqual({ calls: 1, refunds: 0 });
  });

  it("a key whose guarded miss failed can be asked again (the guard's turn is let go)", async () => {
    const cache = newCache();
    const { counts, guard } = countingGuard(true);
    const unsent = new UpstreamError('server_error', 'backing off', 503, 1000, false);
    let fail = true;
    const flaky = spec('j', () => (fail ? Promise.reject(unsent) : answer()));
    await expect(cache.load(flaky, guard)).rejects.toBe(unsent);
    fail = false;
    const again = await Promise.race([
      cache.load(flaky, guard),
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 2000)),
    ]);
    expect(again).toMatchObject({ outcome: 'miss' });
    expect(counts).toEqual({ calls: 2, refunds: 1 });
  });

  it('a guard that gives no refund is fine on every path that refunds', async () => {
    const noRefund = () => undefined;
    const unsent = new UpstreamError('server_error', 'backing off', 503, 1000, false);
    await expect(
      newCache().load(
        spec('k', () => Promise.reject(unsent)),
        noRefund,
      ),
    ).rejects.toBe(unsent);
    const source: AnswerSource = {
      fetch: <V>() =>
        Promise.resolve({ value: 'shared' as V, asOfText: BATCH, size: 1, fetchedAt: NOW - 1000 }),
    };
    expect((await newCache(source).load(spec('l', answer), noRefund)).entry.value).toBe('shared');
    const cache = newCache();
    let letThrough: () => void = () => {};
    const slowNoRefund = () =>
      new Promise<undefined>((resolve) => (letThrough = () => resolve(undefined)));
    const slow = spec('m', answer);
    const loading = cache.load(slow, slowNoRefund);
    await Promise.resolve();
    cache.refreshInBackground(slow);
    letThrough();
    expect((await loading).entry.value).toBe('v');
  });

  it('asks the answer source for an interactive fetch, after a shared lookup that found nothing', async () => {
    const purposes: string[] = [];
    const source: AnswerSource = {
      lookup: () => Promise.resolve(null),
      fetch: <V>(s: ResourceSpec<V>, purpose: string) => {
        purposes.push(purpose);
        return s.fetch('interactive');
      },
    };
    const { counts, guard } = countingGuard();
    const loaded = await newCache(source).load(spec('n', answer), guard);
    expect(loaded).toMatchObject({ outcome: 'miss', entry: { value: 'v' } });
    expect(purposes).toEqual(['interactive']);
    expect(counts).toEqual({ calls: 1, refunds: 0 });
  });
});
