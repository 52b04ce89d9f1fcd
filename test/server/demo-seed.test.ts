import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  changesResponseSchema,
  countryHistoryResponseSchema,
} from '../../src/shared/history-api.js';
import { statusResponseSchema } from '../../src/shared/bff-api.js';
import { runEntry } from '../helpers/run-entry.js';

/*
 * `npm start` in demo mode (the real entry point through tsx): 90 days of past batches are
 * seeded, marked demo, joined seamlessly by the live batch; a restart on the same DATA_DIR seeds
 * nothing twice.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'grd-seed-'));

interface Seen {
  added: number | null;
  batches: number | null;
  demo: boolean | null;
  points: number;
  changed: number;
}

function startAndLook(): Promise<Seen> {
  const seen: Seen = { added: null, batches: null, demo: null, points: 0, changed: 0 };
  let looking = false;
  return runEntry('src/server/main.ts', {
    env: { DATA_DIR: dataDir, PORT: '0' },
    timeoutMs: 90_000,
    onOutput: (text, stop) => {
      const address = /Global Risk Dashboard at (http:\/\/127\.0\.0\.1:\d+)/.exec(text);
      const seeded = /"added":(\d+)[^\n]*demo history seeded/.exec(text);
      if (!address || !seeded || looking) return;
      looking = true;
      seen.added = Number(seeded[1]);
      void (async () => {
        try {
          // The watch records the live batch by itself; wait for it (no page asks for it).
          for (;;) {
            const status = statusResponseSchema.parse(
              await (await fetch(`${address[1]}/api/status`)).json(),
            );
            seen.batches = status.history?.batches ?? null;
            seen.demo = status.history?.demo_seeded ?? null;
            if (status.history?.latest && status.history.latest === status.as_of) break;
            await new Promise((done) => setTimeout(done, 200));
          }
          const sdn = countryHistoryResponseSchema.parse(
            await (await fetch(`${address[1]}/api/history/country/SDN`)).json(),
          );
          seen.points = sdn.points.length;
          const changes = changesResponseSchema.parse(
            await (await fetch(`${address[1]}/api/changes?since=7d`)).json(),
          );
          seen.changed = changes.countries.filter((c) => c.delta_risk !== 0).length;
        } finally {
          stop();
        }
      })();
    },
  }).then(({ output }) => {
    if (seen.batches === null) throw new Error(`no history seen:\n${output.slice(-2000)}`);
    return seen;
  });
}

describe('demo history seed', () => {
  it('seeds 90 days on first start, and nothing again on a restart', async () => {
    const first = await startAndLook();
    expect(first.added).toBe(180);
    expect(first.demo).toBe(true);
    expect(first.batches).toBe(181);
    expect(first.points).toBe(181);
    expect(first.changed).toBeGreaterThan(50);
    const second = await startAndLook();
    expect(second.added).toBe(0);
    // Only a batch published since the first start may be new.
    expect(second.batches).toBeGreaterThanOrEqual(181);
    expect(second.batches).toBeLessThanOrEqual(182);
  }, 180_000);
});
