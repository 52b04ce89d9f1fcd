import { watchCpuStretches } from '../../scripts/bench/cpu-stretches.js';
import { Readable } from 'node:stream';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertRule } from '../../src/shared/alerts-api.js';
import { SITES_MAX } from '../../src/shared/sites-api.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { openTestStore } from '../helpers/history-store.js';
import { startHistoryStack, type HistoryStack } from '../helpers/history-stack.js';
import { ISO_CODES, recordSynthetic, syntheticBatch } from '../helpers/synthetic-batches.js';

/*
 * Issue 29: no one request stalls everyone. Through the real app (buildApp over a real demo
 * upstream, a real PGlite store of 100 batches × 249 countries): an oversized or too-wide CSV
 * is refused while it is being read; another client's cached page is answered while a chain
 * verification, a backtest and a 19,990-row import run (the victim's requests start on timers,
 * which cannot fire while the thread is held); one client beyond its share of those routes gets
 * a 429 with Retry-After; /readyz waits for the start-up work the pages need.
 */
const start = Date.UTC(2026, 2, 1, 8, 0, 0);
const DAY = 86_400_000;
const BATCHES = 100;

let store: HistoryStore;
let stack: HistoryStack;
beforeAll(async () => {
  store = await openTestStore('pglite');
  for (let i = 0; i < BATCHES; i += 1) {
    const at = new Date(start - (BATCHES - i) * DAY);
    // Numbers that move from batch to batch, so rules fire and chains differ.
    await recordSynthetic(
      store,
      syntheticBatch(at, ISO_CODES, { active: (i * 7) % 50, risk: (i * 13) % 100, tier: 'mod' }),
    );
  }
  stack = await startHistoryStack(store, {
    start,
    config: {
      // One client may have 2 heavy answers built and 4 waiting; the 7th at once is a 429.
      history: {
        storeQuestions: {
          perMinute: 100_000,
          perClientInFlight: 2,
          perClientQueue: 4,
          inFlight: 2,
        },
      },
    },
  });
  // The victim's page, cached.
  expect((await stack.app.inject({ url: '/api/v1/hotspots' })).statusCode).toBe(200);
}, 180_000);
afterAll(async () => {
  await stack?.close();
  await store?.close();
});

/** 20 rules of a backtest (the most a list may have). */
const RULES: AlertRule[] = [
  ...Array.from({ length: 10 }, (_, i) => ({
    kind: 'active_change' as const,
    min_abs_delta: i + 1,
  })),
  ...Array.from({ length: 10 }, (_, i) => ({
    kind: 'risk_threshold' as const,
    threshold: 10 * i + 5,
    direction: 'up' as const,
  })),
];

function backtest(countries: readonly string[]) {
  return stack.app.inject({
    method: 'POST',
    url: '/api/watchlists/backtest',
    payload: { countries, rules: RULES },
  });
}

function importCsv(payload: string | Buffer | Readable) {
  return stack.app.inject({
    method: 'POST',
    url: '/api/sites/import?dry_run=1',
    headers: { 'content-type': 'text/csv' },
    payload,
  });
}

/**
 * The most CPU the process may spend between two turns of its event loop while heavy work runs
 * (CPU time, which a busy machine hardly stretches, unlike the loop's wall-clock delay). Far
 * above the 10 ms slices (measured 16-106 ms here, GC and the store's statements included) and
 * far below what work that never yields holds: 550 ms for this import, seconds for the backtest.
 */
const CPU_STRETCH_BOUND_MS = 400;

/**
 * Runs `heavy` while a victim asks for a cached page every 20 ms (each request started by a
 * timer, so none starts while the thread is held); counts the victim's answers that arrived
 * before the heavy one. How long the loop may be held is a figure of \`npm run bench -- --heavy\`
 * (docs/benchmarks.md, section 11), not a timed assertion: on a loaded machine a descheduled
 * process reads as a long delay whatever the code does.
 */
async function victimDuring(heavy: () => Promise<LightMyRequestResponse>) {
  const cpu = watchCpuStretches();
  let heavyDone = false;
  let answeredDuring = 0;
  const victims: Promise<void>[] = [];
  let timer: NodeJS.Timeout | undefined;
  const tick = (): void => {
    victims.push(
      stack.app.inject({ url: '/api/v1/hotspots' }).then((res) => {
        expect(res.statusCode).toBe(200);
        if (!heavyDone) answeredDuring += 1;
      }),
    );
    timer = setTimeout(tick, 20);
  };
  timer = setTimeout(tick, 20);
  const res = await heavy();
  heavyDone = true;
  clearTimeout(timer);
  const longestCpuMs = cpu.stop()[0] ?? 0;
  await Promise.all(victims);
  return { res, answeredDuring, longestCpuMs };
}

/** A CSV of valid sites generated as it is read; `pulled` counts the bytes the server took. */
function generatedCsv(header: string, rows: number, row: (i: number) => string) {
  const counter = { pulled: 0 };
  let i = -1;
  const stream = new Readable({
    read() {
      // 64 KB a read, as a socket would hand it over.
      let chunk = '';
      while (chunk.length < 64 * 1024 && i < rows) {
        chunk += i < 0 ? header : row(i);
        i += 1;
      }
      if (chunk === '') {
        this.push(null);
        return;
      }
      counter.pulled += chunk.length;
      this.push(chunk);
    },
  });
  return { stream, counter };
}

describe('uploads are bounded while they are read', () => {
  it('a CSV of 5,000,000 rows is refused at its 20,001st row, having read a fraction of it', async () => {
    const { stream, counter } = generatedCsv('ref,name,kind,lat,lng\n', 5_000_000, () => 'x\n');
    const res = await importCsv(stream);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      ok: false,
      error: `The file has more than ${SITES_MAX} rows; an import takes at most ${SITES_MAX} (the most sites there may be): split it`,
    });
    // 20,001 two-byte rows are ~40 KB; the file would have been 10 MB.
    expect(counter.pulled).toBeLessThan(1024 * 1024);
  });

  it('a header of 4,900,000 columns is refused at once, having read a fraction of it', async () => {
    const { stream, counter } = generatedCsv('ref,name,kind,lat,lng', 4_900_000, () => ',a');
    const res = await importCsv(stream);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      ok: false,
      error: expect.stringMatching(
        /^Row 1 of the file is longer than 64 KB \(more than 1000 columns/,
      ),
    });
    expect(counter.pulled).toBeLessThan(1024 * 1024);
  });

  it('a 1,001st column is refused in words; 1,000 columns are read', async () => {
    const header = (columns: number) =>
      ['ref', 'name', 'kind', 'lat', 'lng', ...Array.from({ length: columns - 5 }, () => 'x')].join(
        ',',
      );
    const wide = await importCsv(`${header(1001)}\nW-1,W,office,50,30\n`);
    expect(wide.statusCode).toBe(413);
    expect(wide.json()).toEqual({
      ok: false,
      error: expect.stringMatching(/^Row 1 of the file has more than 1000 columns/),
    });
    const legal = await importCsv(`${header(1000)}\nW-1,W,office,50,30\n`);
    expect(legal.statusCode).toBe(200);
    expect(legal.json()).toMatchObject({ ok: true, dry_run: true, rows: 1 });
  });
});

describe("another client's cached answers flow while heavy work runs", () => {
  it('during a verification of the whole chain', async () => {
    // Each read of batch contents is one stretch the loop cannot break (PGlite on this thread):
    // the verification reads 2 batches at a time (10 held it for 50-60 ms on a quiet machine).
    const read = store.batchContents.bind(store);
    const batchesPerRead: number[] = [];
    store.batchContents = (ids) => {
      batchesPerRead.push(ids.length);
      return read(ids);
    };
    const { res, answeredDuring, longestCpuMs } = await victimDuring(() =>
      stack.app.inject({ url: '/api/batches/verify' }),
    ).finally(() => {
      store.batchContents = read;
    });
    expect(Math.max(...batchesPerRead)).toBeLessThanOrEqual(2);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ok: true, holds: true });
    expect(res.json().checked).toBeGreaterThanOrEqual(BATCHES);
    expect(answeredDuring).toBeGreaterThan(0);
    expect(longestCpuMs).toBeLessThan(CPU_STRETCH_BOUND_MS);
  });

  it('during a backtest of 100 countries × 20 rules', async () => {
    // The numbers of every batch are read once per process (that read yields already): a
    // first, small backtest reads them, so the one measured is the computation itself.
    expect((await backtest(['AFG'])).statusCode).toBe(200);
    const countries = ISO_CODES.slice(0, 100);
    const { res, answeredDuring, longestCpuMs } = await victimDuring(() => backtest(countries));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ok: true, batches: expect.any(Number) });
    expect(res.json().countries).toHaveLength(100);
    expect(answeredDuring).toBeGreaterThan(0);
    expect(longestCpuMs).toBeLessThan(CPU_STRETCH_BOUND_MS);
  });

  it('during a 19,990-row import', async () => {
    const rows = Array.from(
      { length: 19_990 },
      (_, i) => `H-${i},Site ${i},office,${(i % 140) - 60 + 0.5},${(i % 340) - 170 + 0.5}`,
    );
    const csv = `ref,name,kind,lat,lng\n${rows.join('\n')}\n`;
    // The country shapes are loaded once per process, at start-up before /readyz says ready
    // (an app that listens); this one does not listen, so a one-site import loads them first.
    expect((await importCsv('ref,name,kind,lat,lng\nF-1,F,office,50,30\n')).statusCode).toBe(200);
    // Stored, not a dry run: the writes are most of the work (no site is stored before).
    const { res, answeredDuring, longestCpuMs } = await victimDuring(() =>
      stack.app.inject({
        method: 'POST',
        url: '/api/sites/import',
        headers: { 'content-type': 'text/csv' },
        payload: csv,
      }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ok: true, dry_run: false, rows: 19_990 });
    expect(answeredDuring).toBeGreaterThan(0);
    expect(longestCpuMs).toBeLessThan(CPU_STRETCH_BOUND_MS);
  });
});

describe('one client beyond its share of the heavy routes', () => {
  const burst = async (ask: () => Promise<LightMyRequestResponse>) => {
    const answers = await Promise.all(Array.from({ length: 12 }, ask));
    const refused = answers.filter((res) => res.statusCode === 429);
    expect(answers.filter((res) => res.statusCode === 200)).toHaveLength(
      answers.length - refused.length,
    );
    return refused;
  };

  it.each([
    [
      'a verification',
      () => stack.app.inject({ url: '/api/batches/verify' }),
      /chain verification/,
    ],
    ['a backtest', () => backtest(['MLI', 'NER']), /backtest/],
    ['an import', () => importCsv('ref,name,kind,lat,lng\nQ-1,Q,office,50,30\n'), /site import/],
  ] as const)('%s: 429 with Retry-After, in words', async (_name, ask, words) => {
    const refused = await burst(ask);
    // 2 answered and 4 waiting at most: of 12 at once, at least 6 are refused.
    expect(refused.length).toBeGreaterThanOrEqual(6);
    for (const res of refused) {
      expect(res.headers['retry-after']).toBe('1');
      expect(res.json()).toMatchObject({ ok: false, error: expect.stringMatching(words) });
    }
  });
});

describe('/readyz', () => {
  it('is not 200 while start-up work the pages need (the demo seed) runs, data cached or not', async () => {
    expect((await stack.app.inject({ url: '/readyz' })).statusCode).toBe(200);
    let finish = (): void => {};
    const seeding = new Promise<void>((done) => {
      finish = done;
    });
    stack.bff.holdReadiness(seeding, 'The demo history is still being recorded');
    const held = await stack.app.inject({ url: '/readyz' });
    expect(held.statusCode).toBe(503);
    expect(held.json()).toEqual({ ok: false, error: 'The demo history is still being recorded' });
    finish();
    await seeding;
    expect((await stack.app.inject({ url: '/readyz' })).statusCode).toBe(200);
  });
});

describe('/metrics', () => {
  it('exposes the event loop delay', async () => {
    const text = (await stack.app.inject({ url: '/metrics' })).body;
    for (const quantile of ['0.5', '0.99', 'max']) {
      expect(text).toMatch(
        new RegExp(`^grd_event_loop_delay_seconds\\{quantile="${quantile}"\\} [0-9.e-]+$`, 'm'),
      );
    }
  });
});
