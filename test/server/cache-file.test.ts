import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/compose/app.js';
import { Secret } from '../../src/server/secret.js';
import { get, startTestStack } from '../helpers/bff.js';
import type { TestClock } from '../helpers/clock.js';
import type { Stack } from '../helpers/stack.js';
import { tempDataDir, testConfig } from '../helpers/test-config.js';

// Recovery of the cache file: damaged entries, a truncated file, a killed writer, permissions.

let stack: Stack & { clock: TestClock };
afterEach(async () => {
  await stack.close();
});

async function filledDir(): Promise<{ dataDir: string; used: number }> {
  const dataDir = tempDataDir();
  stack = await startTestStack({ config: { server: { dataDir } } });
  for (const url of ['/api/v1/hotspots', '/api/v1/hotspots?include=events', '/api/v1/export']) {
    expect((await get(stack, url)).statusCode).toBe(200);
  }
  const used = (await get(stack, '/api/status')).json().quota.used_last_60min as number;
  await stack.app.close();
  return { dataDir, used };
}

const restart = async (dataDir: string) =>
  (
    await buildApp(testConfig({ server: { dataDir } }), {
      upstream: { mode: 'demo', baseUrl: stack.upstream.url, apiKey: new Secret(stack.key) },
      now: stack.clock.now,
    })
  ).app;

const cacheFile = (dir: string) =>
  join(dir, readdirSync(dir).find((f) => f.startsWith('cache-')) ?? '');

describe('cache file recovery', () => {
  it('an entry of the wrong shape is dropped on load (refetched), the others are kept', async () => {
    const { dataDir } = await filledDir();
    const file = cacheFile(dataDir);
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    const plain = saved.entries.find((e: { key: string }) => e.key === 'hotspots|tier=|include=');
    plain.value.data.hotspots = null;
    writeFileSync(file, JSON.stringify(saved));
    const app = await restart(dataDir);
    try {
      const before = stack.upstream.requestCount();
      const res = await app.inject('/api/v1/hotspots');
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-cache']).toBe('MISS');
      expect(res.json().hotspots.length).toBeGreaterThan(0);
      const kept = await app.inject('/api/v1/hotspots?include=events');
      expect(kept.headers['x-cache']).toBe('HIT');
      expect(stack.upstream.requestCount()).toBe(before + 1);
    } finally {
      await app.close();
    }
  });

  it('a truncated cache file keeps the quota log', async () => {
    const { dataDir, used } = await filledDir();
    expect(used).toBeGreaterThan(0);
    const file = cacheFile(dataDir);
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.slice(0, Math.floor(text.length / 2)));
    const app = await restart(dataDir);
    try {
      expect((await app.inject('/api/status')).json().quota.used_last_60min).toBe(used);
    } finally {
      await app.close();
    }
  });

  it('temp files of a killed writer are removed; files are private (0600)', async () => {
    const { dataDir } = await filledDir();
    const orphan = `${cacheFile(dataDir)}.99999.tmp`;
    writeFileSync(orphan, '{"half');
    const unrelated = join(dataDir, 'notes.tmp');
    writeFileSync(unrelated, 'not ours');
    const app = await restart(dataDir);
    await app.close();
    const names = readdirSync(dataDir);
    expect(names).not.toContain(orphan.split('/').at(-1));
    expect(names).toContain('notes.tmp');
    for (const name of names.filter((n) => n.endsWith('.json'))) {
      expect(statSync(join(dataDir, name)).mode & 0o777).toBe(0o600);
    }
  });
});
