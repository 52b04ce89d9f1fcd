import { createServer, type Server } from 'node:http';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/compose/app.js';
import { Secret } from '../../src/server/secret.js';
import { testConfig } from '../helpers/test-config.js';

// Every upstream header is untrusted text: an upstream that echoes the key in Content-Type or
// Content-Disposition must not get it into a response, a log line, /readyz or a download.

const KEY = `ar_live_${'5e'.repeat(32)}`;
const CSV = '# generated_at: 2026-11-23T04:00:00Z\niso,name,risk\nUKR,Ukraine,80\n';

let server: Server | null = null;
afterEach(async () => {
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  server = null;
});

async function echoingUpstream(): Promise<string> {
  server = createServer((req, res) => {
    const auth = req.headers.authorization ?? '';
    if (req.url?.startsWith('/api/v1/export')) {
      res.writeHead(200, {
        'content-type': `text/csv; charset=utf-8; token=${auth}`,
        'content-disposition': `attachment; filename="${auth}.csv"`,
      });
      res.end(CSV);
      return;
    }
    // A 200 whose body is an HTML page: unreadable, so its content type reaches the message.
    res.writeHead(200, { 'content-type': `text/html; ${auth}` });
    res.end('<!doctype html><p>proxy error</p>');
  });
  await new Promise<void>((done) => server?.listen(0, '127.0.0.1', done));
  const address = server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

describe('upstream header values', () => {
  it('never reach a 502, a log line, /readyz, /api/status or the export download', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'trace' }, { write: (line: string) => lines.push(line) });
    const app = (
      await buildApp(testConfig({ server: { logLevel: 'trace' } }), {
        upstream: { mode: 'live', baseUrl: await echoingUpstream(), apiKey: new Secret(KEY) },
        logger,
      })
    ).app;
    try {
      const download = await app.inject('/api/v1/export?format=csv');
      expect(download.statusCode).toBe(200);
      expect(download.body).toBe(CSV);
      // Built by us from the batch date, not passed through.
      expect(download.headers['content-disposition']).toBe(
        'attachment; filename="ggri-export-2026-11-23.csv"',
      );
      expect(download.headers['content-type']).toBe('text/csv; charset=utf-8');

      const broken = await app.inject('/api/v1/hotspots');
      expect(broken.statusCode).toBe(502);
      expect(broken.json().error).toMatch(/text\/html/);
      const ready = await app.inject('/readyz');
      const status = await app.inject('/api/status');
      const seen = [download, broken, ready, status]
        .map((r) => `${JSON.stringify(r.headers)}\n${r.body}`)
        .concat(lines)
        .join('\n');
      expect(lines.some((line) => /Risk API request failed/.test(line))).toBe(true);
      expect(seen).not.toContain(KEY.slice(8));
      expect(seen).not.toMatch(/ar_live_/);
    } finally {
      await app.close();
    }
  });
});

describe('an upstream content type used as a hiding place', () => {
  it('is shown only as a plain media type', async () => {
    server = createServer((req, res) => {
      const hex = (req.headers.authorization ?? '').slice(-64);
      res.writeHead(200, { 'content-type': `text/${hex}` });
      res.end('<html></html>');
    });
    await new Promise<void>((done) => server?.listen(0, '127.0.0.1', done));
    const address = server.address();
    const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const app = (
      await buildApp(testConfig(), {
        upstream: { mode: 'live', baseUrl, apiKey: new Secret(KEY) },
      })
    ).app;
    try {
      const broken = await app.inject('/api/v1/hotspots');
      expect(broken.statusCode).toBe(502);
      expect(broken.json().error).toMatch(/an unreadable content type/);
      expect(broken.body).not.toContain(KEY.slice(8, 40));
    } finally {
      await app.close();
    }
  });
});
