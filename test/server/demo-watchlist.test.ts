import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  alertListResponseSchema,
  watchlistListResponseSchema,
} from '../../src/shared/alerts-api.js';
import { runEntry } from '../helpers/run-entry.js';

/*
 * `npm start` in demo mode (the real entry point): after the 90-day seed a sample watchlist
 * exists and its inbox holds the alerts the seeded history produced; a restart adds none.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'grd-demo-list-'));

interface Seen {
  added: number | null;
  lists: string[];
  alerts: number;
  unread: number;
  messages: string[];
}

function startAndLook(): Promise<Seen> {
  const seen: Seen = { added: null, lists: [], alerts: 0, unread: 0, messages: [] };
  let looking = false;
  return runEntry('src/server/main.ts', {
    env: { DATA_DIR: dataDir, PORT: '0' },
    timeoutMs: 90_000,
    onOutput: (text, stop) => {
      const address = /Global Risk Dashboard at (http:\/\/127\.0\.0\.1:\d+)/.exec(text);
      const ready = /"alerts":(\d+)[^\n]*demo watchlist ready/.exec(text);
      if (!address || !ready || looking) return;
      looking = true;
      seen.added = Number(ready[1]);
      void (async () => {
        try {
          const lists = watchlistListResponseSchema.parse(
            await (await fetch(`${address[1]}/api/watchlists`)).json(),
          );
          seen.lists = lists.watchlists.map((l) => l.name);
          const sample = lists.watchlists[0];
          if (!sample) return;
          const inbox = alertListResponseSchema.parse(
            await (await fetch(`${address[1]}/api/alerts?watchlist=${sample.id}&limit=200`)).json(),
          );
          seen.alerts = inbox.alerts.length;
          seen.unread = inbox.unread;
          seen.messages = inbox.alerts.slice(0, 3).map((a) => a.message);
        } finally {
          stop();
        }
      })();
    },
  }).then(({ output }) => {
    if (seen.added === null) throw new Error(`no demo watchlist:\n${output.slice(-2000)}`);
    return seen;
  });
}

describe('demo watchlist', () => {
  it('exists after the seed with the alerts of the seeded history, once', async () => {
    const first = await startAndLook();
    expect(first.lists).toEqual(['Sample: highest risk (demo)']);
    expect(first.added).toBeGreaterThan(0);
    expect(first.alerts).toBe(Math.min(200, first.added!));
    expect(first.unread).toBeGreaterThan(0);
    expect(first.messages[0]).toMatch(/^(Active [+−]|Tier (up|down) from)/);
    const second = await startAndLook();
    expect(second.added).toBe(0);
    expect(second.lists).toEqual(first.lists);
    expect(second.unread).toBe(first.unread);
  }, 180_000);
});
