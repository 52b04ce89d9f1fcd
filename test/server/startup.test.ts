import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runEntryInProcess } from '../helpers/entry-in-process.js';
import { runEntry, type EntryRun } from '../helpers/run-entry.js';

// Runs the real entry point (src/server/main.ts) with each bad configuration, and checks the exit
// code, the one-line message, and that no key is echoed: in this process (a fresh evaluation of
// main.ts, a few milliseconds each), and once as `npm start` would, as a child through tsx, so
// that nothing the runtime adds (a warning) breaks the one line.

const VALID_KEY = `ar_live_${'a1'.repeat(32)}`;
const SECRETISH = 'ar_live_THIS-IS-NOT-HEX-but-is-secret-0123456789';
const tmp = mkdtempSync(join(tmpdir(), 'grd-startup-'));
const keyFile = join(tmp, 'key.txt');
writeFileSync(keyFile, `${SECRETISH}\n`);

function runMain(
  env: Record<string, string>,
  onOutput?: (output: string, stop: () => void) => void,
) {
  return runEntry('src/server/main.ts', {
    env: { DATA_DIR: join(tmp, 'data'), ...env },
    onOutput,
    // A first start creates the history store (PGlite's initdb): seconds on a busy machine.
    timeoutMs: 60_000,
  });
}

const badConfigurations: Array<{ name: string; env: Record<string, string>; message: RegExp }> = [
  {
    name: 'base URL without a key',
    env: { RISK_API_BASE_URL: 'https://risk.example.com' },
    message: /RISK_API_BASE_URL is set but RISK_API_KEY/,
  },
  {
    name: 'key without a base URL',
    env: { RISK_API_KEY: VALID_KEY },
    message: /RISK_API_KEY is set but RISK_API_BASE_URL is not/,
  },
  {
    name: 'malformed key',
    env: { RISK_API_BASE_URL: 'https://risk.example.com', RISK_API_KEY: SECRETISH },
    message: /RISK_API_KEY does not hold a valid key/,
  },
  {
    name: 'malformed key in a file',
    env: { RISK_API_BASE_URL: 'https://risk.example.com', RISK_API_KEY_FILE: keyFile },
    message: /RISK_API_KEY_FILE does not hold a valid key/,
  },
  {
    name: 'unreadable key file',
    env: { RISK_API_BASE_URL: 'https://risk.example.com', RISK_API_KEY_FILE: join(tmp, 'nope') },
    message: /RISK_API_KEY_FILE: cannot read the file/,
  },
  {
    name: 'key and key file together',
    env: {
      RISK_API_BASE_URL: 'https://risk.example.com',
      RISK_API_KEY: VALID_KEY,
      RISK_API_KEY_FILE: keyFile,
    },
    message: /Set RISK_API_KEY or RISK_API_KEY_FILE, not both/,
  },
  {
    name: 'base URL that is not http(s)',
    env: { RISK_API_BASE_URL: 'ftp://risk.example.com', RISK_API_KEY: VALID_KEY },
    message: /RISK_API_BASE_URL must use http:\/\/ or https:\/\//,
  },
  {
    name: 'base URL that is not a URL',
    env: { RISK_API_BASE_URL: 'risk api', RISK_API_KEY: VALID_KEY },
    message: /RISK_API_BASE_URL is not a valid URL/,
  },
  { name: 'non-numeric port', env: { PORT: 'eighty' }, message: /PORT must be a whole number/ },
  { name: 'unknown demo tier', env: { DEMO_TIER: 'Gold' }, message: /DEMO_TIER must be one of/ },
  {
    name: 'public address without access control',
    env: { HOST: '0.0.0.0' },
    message: /HOST=0\.0\.0\.0 would expose the dashboard/,
  },
  {
    name: 'short dashboard token',
    env: { DASHBOARD_TOKEN: 'short' },
    message: /DASHBOARD_TOKEN is too easy to guess/,
  },
];

function expectOneClearLine({ code, output }: EntryRun, message: RegExp): void {
  expect(code, output).toBe(2);
  expect(output).toMatch(message);
  expect(output.trim().split('\n')).toHaveLength(1);
  expect(output).not.toContain(VALID_KEY);
  expect(output).not.toContain(SECRETISH);
  expect(output).not.toContain('THIS-IS-NOT-HEX');
}

describe('start-up with a bad configuration', () => {
  it.each(badConfigurations)(
    '$name: exits non-zero with one clear line',
    async ({ env, message }) => {
      const run = await runEntryInProcess(() => import('../../src/server/main.js'), {
        DATA_DIR: join(tmp, 'data'),
        ...env,
      });
      expectOneClearLine(run, message);
    },
  );

  it('exits non-zero with one clear line as a process of its own', async () => {
    const malformed = badConfigurations.find((c) => c.name === 'malformed key')!;
    expectOneClearLine(await runMain(malformed.env), malformed.message);
  }, 60_000);
});

describe('start-up with no configuration', () => {
  it('starts the demo upstream, reaches it over HTTP and serves the API', async () => {
    type Status = { mode?: string; as_of?: string | null };
    const seen: { health: unknown; status: Status | null } = { health: null, status: null };
    let probing = false;
    const { output } = await runMain({ PORT: '0' }, (text, stop) => {
      const address = /Global Risk Dashboard at (http:\/\/127\.0\.0\.1:\d+) \(Demo data\)/.exec(
        text,
      );
      if (!address || probing) return;
      probing = true;
      void (async () => {
        try {
          seen.health = await (await fetch(`${address[1]}/healthz`)).json();
          // Hotspots go through the BFF to the demo upstream over HTTP; status then has an as_of.
          await fetch(`${address[1]}/api/v1/hotspots`);
          seen.status = (await (await fetch(`${address[1]}/api/status`)).json()) as Status;
        } finally {
          stop();
        }
      })();
    });
    expect(seen.health, output).toMatchObject({ ok: true });
    expect(seen.status, output).toMatchObject({ mode: 'demo' });
    expect(seen.status?.as_of, output).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(output).not.toMatch(/ar_live_[0-9a-f]{64}/i);
  }, 90_000);
});
