import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join, resolve } from 'node:path';
import { pino, type Logger } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/compose/app.js';
import { Secret } from '../../src/server/secret.js';
import { startTestStack } from '../helpers/bff.js';
import { MINUTE } from '../helpers/clock.js';
import type { Stack } from '../helpers/stack.js';
import { tempDataDir, testConfig } from '../helpers/test-config.js';

// Drives every route, the error paths included, and searches every response (status line,
// headers, body), every log line and the persisted cache for the key and its SHA-256.

const transcript: string[] = [];
const logLines: string[] = [];
const keys = new Set<string>();
const logger: Logger = pino({ level: 'trace' }, { write: (line: string) => logLines.push(line) });

const ROUTES = [
  '/',
  '/country/UKR',
  '/api/v1/hotspots',
  '/api/v1/hotspots?limit=5&tier=crit,high',
  '/api/v1/hotspots?tier=low&limit=50&include=events',
  '/api/v1/country/UKR',
  '/api/v1/country/ATA',
  '/api/v1/country/..%2F',
  '/api/v1/export',
  '/api/v1/export?format=json',
  '/api/v1/export?format=xml',
  '/api/v1/hotspots?limit=0',
  '/api/countries',
  '/api/status',
  '/api/nothing',
  '/healthz',
  '/readyz',
  '/metrics',
  '/assets/missing.js',
];

async function drive(stack: { app: Stack['app'] }, extra: string[] = []): Promise<void> {
  for (const url of [...ROUTES, ...extra]) {
    const res = await stack.app.inject({ method: 'GET', url });
    transcript.push(`${url} ${res.statusCode} ${JSON.stringify(res.headers)}\n${res.body}`);
  }
}

async function hostileUpstream(key: string): Promise<Server> {
  // An upstream that echoes the key in its error texts: the BFF must not repeat it.
  const server = createServer((req, res) => {
    const status = req.url?.includes('export') ? 400 : req.url?.includes('country') ? 403 : 503;
    res.writeHead(status, { 'content-type': 'application/json', 'retry-after': '1' });
    res.end(
      JSON.stringify({ ok: false, error: `bad request for ${key} / ${req.headers.authorization}` }),
    );
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return server;
}

const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of closers) await close();
});

describe('the API key never leaves the upstream client', () => {
  it('is absent from every response, header and log line, on every path', async () => {
    const dataDir = tempDataDir();
    // Normal operation, then every kind of upstream failure.
    const stack = await startTestStack({ logger, config: { server: { dataDir } } });
    closers.push(() => stack.close());
    keys.add(stack.key);
    await drive(stack);
    for (const faults of [{ outage: true }, { errorRate: 1 }, { malformedRate: 1 }]) {
      stack.upstream.setFaults(faults);
      stack.clock.advance(40 * MINUTE);
      await drive(stack, ['/api/v1/hotspots?include=categories']);
      await stack.app.inject('/api/v1/hotspots');
    }
    stack.upstream.setFaults({});

    // 401 (a malformed key), 403 (a deactivated one), 429 (a spent one), a hostile upstream.
    const rejected = `ar_live_${'ab'.repeat(31)}zz`;
    const deactivated = stack.upstream.issueKey('Pro');
    stack.upstream.deactivateKey(deactivated);
    const spent = stack.upstream.issueKey('Custom', { limit: 1 });
    await fetch(`${stack.upstream.url}/api/v1/hotspots`, {
      headers: { authorization: `Bearer ${spent}` },
    });
    const hostileKey = stack.upstream.issueKey('Pro');
    const hostile = await hostileUpstream(hostileKey);
    closers.push(() => new Promise((done) => hostile.close(() => done())));
    const address = hostile.address();
    const hostileUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    for (const [key, baseUrl] of [
      [rejected, stack.upstream.url],
      [deactivated, stack.upstream.url],
      [spent, stack.upstream.url],
      [hostileKey, hostileUrl],
    ] as const) {
      keys.add(key);
      const app = (
        await buildApp(testConfig({ server: { dataDir, logLevel: 'trace' } }), {
          upstream: { mode: 'live', baseUrl, apiKey: new Secret(key) },
          logger,
        })
      ).app;
      closers.push(() => app.close());
      await drive({ app });
    }
    for (const close of closers.splice(0)) await close();

    expect(transcript.length).toBeGreaterThan(100);
    expect(logLines.length).toBeGreaterThan(20);
    const cacheFiles = readdirSync(dataDir).map((f) => readFileSync(join(dataDir, f), 'utf8'));
    const everything = [...transcript, ...logLines, ...cacheFiles].join('\n');
    // The failures really were exercised.
    expect(everything).toMatch(/The API key was rejected \(401\)/);
    expect(everything).toMatch(/no API access \(403\)/);
    expect(everything).toMatch(/\(429\)/);
    expect(everything).toMatch(/bad request for \[redacted\]/);
    for (const key of keys) {
      expect(everything).not.toContain(key);
      expect(everything).not.toContain(key.slice(8));
      expect(everything).not.toContain(createHash('sha256').update(key).digest('hex'));
    }
    expect(everything).not.toMatch(/ar_live_[0-9a-f]{64}/i);
  });

  it('is absent from the built bundle and the compiled server', () => {
    const dist = resolve(import.meta.dirname, '../../dist');
    // A scan of nothing proves nothing: `npm test` builds before the unit tests; run
    // `npm run build` first when running this file alone.
    for (const part of ['client/index.html', 'node/server/main.js']) {
      expect(existsSync(join(dist, part)), `dist/${part} missing: run npm run build`).toBe(true);
    }
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else files.push(path);
      }
    };
    walk(dist);
    expect(files.some((f) => f.endsWith('.js') && f.includes(`${join('dist', 'client')}`))).toBe(
      true,
    );
    for (const file of files) {
      const text = readFileSync(file).toString('latin1');
      expect(text, file).not.toMatch(/ar_live_[0-9a-fA-F]{64}/);
      for (const key of keys) expect(text, file).not.toContain(key);
    }
  });
});
