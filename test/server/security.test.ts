import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { get, startTestStack } from '../helpers/bff.js';
import type { TestClock } from '../helpers/clock.js';
import type { Stack } from '../helpers/stack.js';
import { tempDataDir } from '../helpers/test-config.js';

let stack: Stack & { clock: TestClock };
afterEach(async () => {
  await stack.close();
});

function fakeClientDir(): string {
  const dir = tempDataDir('grd-client-');
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>GRD</title><div id="root"></div>');
  writeFileSync(join(dir, 'assets', 'index-Bq3xZ9.js'), 'console.log("app")');
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dir;
}

function csp(res: { headers: Record<string, unknown> }): Map<string, string> {
  const text = String(res.headers['content-security-policy'] ?? '');
  return new Map(
    text.split(';').map((part) => {
      const [name = '', ...values] = part.trim().split(/\s+/);
      return [name, values.join(' ')];
    }),
  );
}

describe('security headers', () => {
  it('CSP without inline script, same-origin connections, no framing, nosniff, referrer policy', async () => {
    stack = await startTestStack();
    for (const url of ['/api/v1/hotspots', '/healthz', '/api/nothing']) {
      const res = await get(stack, url);
      const policy = csp(res);
      expect(policy.get('default-src')).toBe("'self'");
      expect(policy.get('script-src')).toBe("'self'");
      expect(policy.get('connect-src')).toBe("'self'");
      expect(policy.get('img-src')).toBe("'self' data:");
      expect(policy.get('style-src')).toBe("'self' 'unsafe-inline'");
      expect(policy.get('frame-ancestors')).toBe("'none'");
      expect(policy.get('object-src')).toBe("'none'");
      expect(policy.has('upgrade-insecure-requests')).toBe(false);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('same-origin');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('behind TLS: HSTS and upgrade-insecure-requests', async () => {
    stack = await startTestStack({ config: { access: { behindTls: true } } });
    const res = await get(stack, '/healthz');
    expect(res.headers['strict-transport-security']).toMatch(/max-age=31536000/);
    expect(csp(res).has('upgrade-insecure-requests')).toBe(true);
  });

  it('a configured tile layer adds only its host to img-src', async () => {
    stack = await startTestStack({
      config: {
        look: {
          tiles: { url: 'https://{s}.tile.example.org/{z}/{x}/{y}.png', attribution: '© Example' },
        },
      },
    });
    const res = await get(stack, '/healthz');
    expect(csp(res).get('img-src')).toBe("'self' data: https://*.tile.example.org");
    expect(csp(res).get('connect-src')).toBe("'self'");
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect((await get(stack, '/api/status')).json().tiles).toEqual({
      url: 'https://{s}.tile.example.org/{z}/{x}/{y}.png',
      attribution: '© Example',
    });
  });
});

describe('the SPA', () => {
  it('page routes get index.html (no-cache); hashed assets are immutable; missing files 404', async () => {
    stack = await startTestStack({ clientDir: fakeClientDir() });
    for (const url of ['/', '/country/UKR', '/overview?tier=crit,high&limit=50']) {
      const res = await get(stack, url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      // The overview and country pages carry their first frame (issue 32): the root has a class.
      expect(res.body).toContain('<div id="root"');
    }
    const asset = await get(stack, '/assets/index-Bq3xZ9.js');
    expect(asset.statusCode).toBe(200);
    for (const res of [asset, await get(stack, '/'), await get(stack, '/country/UKR')]) {
      expect(csp(res).get('script-src')).toBe("'self'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get(stack, '/favicon.svg')).headers['cache-control']).toBe('no-cache');
    for (const url of ['/assets/missing-123.js', '/marker-icon.png', '/country/UKR/x.css']) {
      const res = await get(stack, url);
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toMatchObject({ ok: false });
    }
    const api = await get(stack, '/api/v1/nothing');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ ok: false, error: 'No such API route' });
  });
});
