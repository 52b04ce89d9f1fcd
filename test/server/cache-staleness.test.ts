import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import { BatchTracker } from '../../src/server/cache/batch.js';
import {
  ResourceCache,
  type Fetched,
  type ResourceSpec,
} from '../../src/server/cache/resource-cache.js';
import { CacheEntries } from '../../src/server/cache/entries.js';
import { UpstreamError } from '../../src/server/upstream/errors.js';
import { DEFAULT_FRESHNESS } from '../../src/shared/freshness.js';
import { HOUR, MINUTE, TestClock } from '../helpers/clock.js';

/*
 * The cache's staleness policy at its instants: fresh until exactly the revalidation time, served
 * flagged after a failed refresh, servable until exactly STALE_IF_ERROR after the last check, a
 * batch confirmation that renews every entry of the batch, and what makes an entry outdated. The
 * upstream is a scripted answer per key: what is tested is the policy, not the HTTP client.
 */
const BATCH = '2026-11-22T10:00:00Z';
const NEWER = '2026-11-23T03:00:00Z';
const NOON = Date.parse('2026-11-22T12:00:00Z');
const STALE_IF_ERROR = DEFAULT_FRESHNESS.staleIfErrorMs;

interface Scripted {
  spec: ResourceSpec<string>;
  /** The next answer's as_of (null: none), or an error to throw. */
  next: string | null | UpstreamError;
  fetches: number;
}

function scripted(key: string, asOf: string | null): Scripted {
  const script: Scripted = {
    next: asOf,
    fetches: 0,
    spec: {
      key,
      fetch: () => {
        script.fetches += 1;
        const next = script.next;
        if (next instanceof UpstreamError) return Promise.reject(next);
        return Promise.resolve({ value: `${key}@${next}`, asOfText: next, size: 10 });
      },
    },
  };
  return script;
}

const failure = () => new UpstreamError('server_error', 'the Risk API answered 503', 503);
const noGuard = () => undefined;

let clock: TestClock;
let probe: Scripted;
let cache: ResourceCache;
/** A cache on the test's clock, whose batch probe is `probe`; `shared`: other replicas' answers. */
function newCache(shared?: ConstructorParameters<typeof ResourceCache>[6]): ResourceCache {
  return new ResourceCache(
    new CacheEntries(100, 1_000_000),
    new BatchTracker(),
    DEFAULT_FRESHNESS,
    clock.now,
    () => probe.spec,
    pino({ level: 'silent' }) as unknown as FastifyBaseLogger,
    shared,
  );
}
beforeEach(() => {
  clock = new TestClock(NOON);
  probe = scripted('probe', BATCH);
  cache = newCache();
});

async function loaded(script: Scripted) {
  const result = await cache.load(script.spec, noGuard);
  await cache.idle();
  return result;
}

describe('fresh, then revalidated', () => {
  it('is fresh until exactly its revalidation time (30 minutes between batches)', async () => {
    const page = scripted('page', BATCH);
    const { entry } = await loaded(page);
    expect(cache.classify(entry, NOON + 30 * MINUTE - 1)).toBe('fresh');
    expect(cache.classify(entry, NOON + 30 * MINUTE)).toBe('revalidate');
  });

  it('a refresh that failed at the revalidation time flags the answer stale, with the reason', async () => {
    const page = scripted('page', BATCH);
    await loaded(page);
    clock.advance(30 * MINUTE);
    probe.next = failure();
    expect(await loaded(page)).toMatchObject({ outcome: 'hit', staleReason: null });
    expect(probe.fetches).toBe(1); // the batch's probe was asked, not the page again
    expect(page.fetches).toBe(1);
    expect(await loaded(page)).toMatchObject({
      outcome: 'stale',
      staleReason: 'the Risk API answered 503',
    });
  });
  it('a refresh that failed before an entry was fetched does not flag that entry', async () => {
    await loaded(probe);
    // The batch's probe fails at 12:30 ...
    clock.advance(30 * MINUTE);
    probe.next = failure();
    await loaded(probe);
    // ... and a page of the same batch is fetched afterwards, at 12:31: due at 13:01.
    clock.advance(MINUTE);
    const page = scripted('page', BATCH);
    const { entry } = await loaded(page);
    clock.advance(30 * MINUTE);
    expect(cache.classify(entry, clock.t)).toBe('revalidate');
    // The 12:30 failure says nothing about an answer checked at 12:31.
    expect(await cache.load(page.spec, noGuard)).toMatchObject({
      outcome: 'hit',
      staleReason: null,
    });
    await cache.idle();
    // The probe asked at 13:01 fails too: now it does.
    expect(await loaded(page)).toMatchObject({
      outcome: 'stale',
      staleReason: 'the Risk API answered 503',
    });
  });
});

describe('outcomes', () => {
  it('a first load is a miss; a fresh entry is a hit that asks nothing', async () => {
    const page = scripted('page', BATCH);
    expect(await loaded(page)).toMatchObject({ outcome: 'miss', staleReason: null });
    clock.advance(MINUTE);
    expect(await loaded(page)).toMatchObject({ outcome: 'hit', staleReason: null });
    expect(page.fetches + probe.fetches).toBe(1);
  });

  it('a fault of the program (not of the upstream) is thrown, never served as stale', async () => {
    const page = scripted('page', BATCH);
    await loaded(page);
    clock.advance(10 * MINUTE);
    await loaded(scripted('other', NEWER));
    page.spec.fetch = () => Promise.reject(new TypeError('a bug'));
    await expect(cache.load(page.spec, noGuard)).rejects.toThrow('a bug');
  });
});

describe('stale-if-error', () => {
  it('the last good answer is servable until exactly 24 hours after it was last checked', async () => {
    const page = scripted('page', BATCH);
    const { entry } = await loaded(page);
    expect(cache.servableUntil(entry)).toBe(NOON + STALE_IF_ERROR);
    page.next = failure();
    probe.next = failure();
    clock.set(NOON + STALE_IF_ERROR);
    expect(cache.peek('page')).toBe(entry);
    expect((await loaded(page)).entry).toBe(entry);
    clock.advance(1);
    expect(cache.peek('page')).toBeUndefined();
    await expect(cache.load(page.spec, noGuard)).rejects.toThrow('503');
  });
});

describe('a confirmed batch renews its entries', () => {
  it('the probe showing the same as_of later makes an older entry fresh again', async () => {
    const page = scripted('page', BATCH);
    const { entry } = await loaded(page);
    expect(cache.classify(entry, NOON + 10 * MINUTE)).toBe('fresh');
    clock.set(NOON + HOUR);
    await loaded(probe);
    expect(cache.classify(entry, NOON + HOUR + 29 * MINUTE)).toBe('fresh');
    expect(cache.servableUntil(entry)).toBe(NOON + HOUR + STALE_IF_ERROR);
  });
});

describe('outdated', () => {
  it('an entry of an older batch fetched before the newer batch was seen', async () => {
    const page = scripted('page', BATCH);
    const { entry } = await loaded(page);
    clock.advance(10 * MINUTE);
    await loaded(scripted('other', NEWER));
    expect(cache.classify(entry, clock.t)).toBe('outdated');
    page.next = failure();
    expect(await loaded(page)).toMatchObject({
      outcome: 'stale',
      staleReason: 'A newer batch exists but could not be fetched: the Risk API answered 503',
    });
    page.next = NEWER;
    expect(await loaded(page)).toMatchObject({ outcome: 'miss' });
  });

  it('an older batch fetched at or after the newer batch was first seen is only lagging', async () => {
    await loaded(scripted('other', NEWER));
    const { entry } = await loaded(scripted('page', BATCH));
    expect(cache.classify(entry, clock.t)).toBe('fresh');
  });

  it('confirming the newer batch does not renew a lagging entry of the older one', async () => {
    await loaded(scripted('other', NEWER));
    const { entry } = await loaded(scripted('page', BATCH));
    clock.advance(HOUR);
    probe.next = NEWER;
    await loaded(probe);
    expect(cache.servableUntil(entry)).toBe(NOON + STALE_IF_ERROR);
  });

  it('an answer of the newest batch that another replica fetched before this one saw it is not outdated', async () => {
    // Another replica fetched the page at 11:50; this replica first sees the batch at 12:00.
    const sharedAt = NOON - 10 * MINUTE;
    const page = scripted('page', BATCH);
    const shared = newCache({
      lookup: <V>(key: string) =>
        Promise.resolve(
          key === 'page'
            ? ({ value: 'shared', fetchedAt: sharedAt, asOfText: BATCH, size: 10 } as Fetched<V>)
            : null,
        ),
      fetch: (spec, purpose) => spec.fetch(purpose),
    });
    await shared.load(probe.spec, noGuard);
    clock.advance(5 * MINUTE);
    const { entry } = await shared.load(page.spec, noGuard);
    expect(entry).toMatchObject({ fetchedAt: sharedAt, value: 'shared' });
    // Same batch as the newest: fresh (its batch was confirmed at 12:00), not refetched.
    expect(shared.classify(entry, clock.t)).toBe('fresh');
    expect(await shared.load(page.spec, noGuard)).toMatchObject({ outcome: 'hit', entry });
    expect(page.fetches).toBe(0);
  });

  it('an answer without as_of from before any batch is never outdated', async () => {
    const { entry } = await loaded(scripted('undated', null));
    expect(entry.asOf).toBeNull();
    clock.advance(MINUTE);
    await loaded(scripted('other', NEWER));
    expect(cache.classify(entry, clock.t)).toBe('fresh');
  });
});

describe('the synchronous hit (issue 35 item 10)', () => {
  it('gives the entry exactly when a load would be a plain hit, and never asks anything', async () => {
    const page = scripted('page', BATCH);
    expect(cache.fresh(page.spec)).toBeNull(); // missing: a load fetches
    const { entry } = await loaded(page);
    clock.set(NOON + 30 * MINUTE - 1);
    expect(cache.fresh(page.spec)).toEqual({ entry, outcome: 'hit', staleReason: null });
    // Due for its check: a load would start a refresh, so the hot path leaves it to load.
    clock.set(NOON + 30 * MINUTE);
    expect(cache.fresh(page.spec)).toBeNull();
    clock.set(NOON + 10 * MINUTE);
    await loaded(scripted('other', NEWER));
    // Outdated by a newer batch: a load fetches again (or serves it flagged stale).
    expect(cache.fresh(page.spec)).toBeNull();
    expect(page.fetches + probe.fetches).toBe(1);
  });
});
