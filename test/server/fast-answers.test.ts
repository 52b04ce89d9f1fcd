import { request as httpRequest } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { installFastAnswers } from '../../src/server/plugins/fast-answers.js';
import { FastAnswers } from '../../src/server/services/rendering/fast-answers.js';
import { installSecurity } from '../../src/server/plugins/security.js';
import { securityOptions } from '../../src/server/compose/plugins.js';
import { sendServed } from '../../src/server/routes/respond.js';
import { JSON_TYPE, type Served } from '../../src/server/services/rendering/render.js';
import { compress, pickEncoding } from '../../src/server/cache/encoding.js';
import { etagOf } from '../../src/server/cache/encoding.js';
import { get, startTestStack, upstreamRequestsDuring } from '../helpers/bff.js';
import { TestClock } from '../helpers/clock.js';
import type { Stack } from '../helpers/stack.js';
import { testConfig } from '../helpers/test-config.js';

// Issue 35 item 10: a fresh cached answer is written before Fastify (plugins/fast-answers.ts).
// `app.inject` never reaches that path, so these tests ask over real HTTP and compare with it.
// The path is only taken without access control: the app's tests here run open whatever
// TEST_AUTH_MODE says (with access on, every request goes through Fastify: the last test).

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One GET over a real socket, the body as sent (not decoded). */
function raw(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    httpRequest(baseUrl + path, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    })
      .on('error', reject)
      .end();
  });
}

/** What belongs to the connection, not the answer (inject has no socket). */
const PER_CONNECTION = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
function answerHeaders(headers: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !PER_CONNECTION.has(name)));
}

let stack: (Stack & { clock: TestClock }) | null = null;
let app: FastifyInstance | null = null;
afterEach(async () => {
  await stack?.close();
  await app?.close();
  stack = null;
  app = null;
});

describe('the hot path on the real app', () => {
  it('answers a fresh hotspot list exactly as Fastify does: every encoding, ETag and 304', async () => {
    stack = await startTestStack({ auth: 'open' });
    const paths = ['/api/v1/hotspots', '/api/v1/hotspots?limit=10&tier=crit,high'];
    for (const path of paths) {
      await get(stack, path); // the miss
      await get(stack, path); // a fresh hit: the route remembers the URL
    }
    const identityTag = String((await get(stack, paths[0] ?? '')).headers.etag);
    const variants: Array<Record<string, string>> = [
      {},
      { 'accept-encoding': 'br' },
      { 'accept-encoding': 'gzip' },
      { 'accept-encoding': 'gzip, deflate, br' },
      { 'accept-encoding': 'br;q=0, gzip;q=0' },
      { 'if-none-match': identityTag },
      { 'if-none-match': `"x", ${identityTag.replace(/^W\//, '')}` },
      { 'if-none-match': '*' },
      { 'accept-encoding': 'br', 'if-none-match': identityTag },
      { host: 'rebound.example' },
    ];
    const statuses: number[] = [];
    const ages = new Set<unknown>();
    // Twice, the clock moved in between (still fresh): `age` is the one header that moves.
    for (const [round, path] of [...paths, ...paths].entries()) {
      if (round === paths.length) stack.clock.advance(7_000);
      for (const headers of variants) {
        const fast = await raw(stack.baseUrl, path, headers);
        const fastify = await get(stack, path, { headers });
        expect({ path, headers, status: fast.status }).toEqual({
          path,
          headers,
          status: fastify.statusCode,
        });
        expect(answerHeaders(fast.headers)).toEqual(answerHeaders(fastify.headers));
        expect(fast.body.equals(fastify.rawPayload)).toBe(true);
        statuses.push(fast.status);
        ages.add(fast.headers.age);
      }
    }
    expect(new Set(statuses)).toEqual(new Set([200, 304, 421]));
    expect(ages.size).toBeGreaterThan(2);
  });

  it('an answer past its freshness goes the cache’s way again: the refresh is asked for', async () => {
    stack = await startTestStack({ auth: 'open' });
    await get(stack, '/api/v1/hotspots');
    await get(stack, '/api/v1/hotspots');
    expect((await raw(stack.baseUrl, '/api/v1/hotspots')).headers['x-cache']).toBe('HIT');
    const fresh = await upstreamRequestsDuring(stack, () =>
      raw(stack!.baseUrl, '/api/v1/hotspots'),
    );
    expect(fresh).toBe(0);

    stack.clock.advance(31 * 60_000); // past FRESH_SECONDS (1800)
    const asked = await upstreamRequestsDuring(stack, async () => {
      await raw(stack!.baseUrl, '/api/v1/hotspots');
      await stack!.bff.upstreamIdle();
    });
    expect(asked).toBeGreaterThan(0);
  });

  it('a new batch: its body goes out, never the wire form kept for the old one', async () => {
    const clock = new TestClock(Date.UTC(2026, 10, 23, 9, 50));
    stack = await startTestStack({ auth: 'open', clock });
    await get(stack, '/api/v1/hotspots');
    await get(stack, '/api/v1/hotspots');
    const before = await raw(stack.baseUrl, '/api/v1/hotspots');
    expect(before.headers['x-cache']).toBe('HIT');
    // 10:00 UTC is a batch time: the next request probes, and the new batch is fetched.
    stack.clock.set(Date.UTC(2026, 10, 23, 10, 1));
    await get(stack, '/api/v1/hotspots');
    await expect
      .poll(async () => (await get(stack!, '/api/status')).json().as_of)
      .toBe('2026-11-23T10:00:00.000Z');
    await get(stack, '/api/v1/hotspots');
    const fast = await raw(stack.baseUrl, '/api/v1/hotspots');
    const fastify = await get(stack, '/api/v1/hotspots');
    expect(fast.headers.etag).not.toBe(before.headers.etag);
    expect(answerHeaders(fast.headers)).toEqual(answerHeaders(fastify.headers));
    expect(fast.body.equals(fastify.rawPayload)).toBe(true);
  });
});

/** A served answer as the cache gives it: memoised body, compressed forms on demand. */
function cachedAnswer(text: string): Served {
  const body = Buffer.from(text);
  const etag = etagOf(body);
  return {
    status: 200,
    contentType: JSON_TYPE,
    body,
    headers: { 'x-cache': 'HIT', age: '0', 'cache-control': 'no-cache', etag },
    outcome: 'hit',
    compress: (accept) => {
      const encoding = pickEncoding(accept);
      return encoding === null ? null : compress(body, etag, encoding);
    },
  };
}

/** A bare app with the security hook, one remembered route and a count of Fastify's requests. */
async function smallApp(options: { access: boolean; fresh: () => Served | null }) {
  const config = testConfig();
  const server = Fastify();
  const fast = new FastAnswers();
  const security = installSecurity(server, securityOptions(config.access, config.look));
  installFastAnswers(server, fast, security, options.access);
  let throughFastify = 0;
  server.addHook('onRequest', (_request, _reply, done) => {
    throughFastify++;
    done();
  });
  server.get('/answer', (request, reply) => {
    const served = cachedAnswer(JSON.stringify({ rows: 'x'.repeat(2000) }));
    fast.remember(request.url, served, options.fresh);
    return sendServed(request, reply, served);
  });
  await server.listen({ host: '127.0.0.1', port: 0 });
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { server, baseUrl: `http://127.0.0.1:${port}`, fastifyCount: () => throughFastify };
}

describe('FastAnswers', () => {
  it('answers a remembered URL before Fastify, with the same bytes and headers', async () => {
    const answer = cachedAnswer(JSON.stringify({ rows: 'x'.repeat(2000) }));
    const small = await smallApp({ access: false, fresh: () => answer });
    app = small.server;
    const first = await raw(small.baseUrl, '/answer', { 'accept-encoding': 'br' });
    const second = await raw(small.baseUrl, '/answer', { 'accept-encoding': 'br' });
    expect(small.fastifyCount()).toBe(1);
    expect(answerHeaders(second.headers)).toEqual(answerHeaders(first.headers));
    expect(second.body.equals(first.body)).toBe(true);
    expect(second.headers['content-security-policy']).toBeDefined();
    // Another method, or a URL never remembered, is Fastify's.
    await raw(small.baseUrl, '/answer?other');
    expect(small.fastifyCount()).toBe(2);
  });

  it('leaves to Fastify what is not fresh, and everything when access control is on', async () => {
    const stale = await smallApp({ access: false, fresh: () => null });
    app = stale.server;
    await raw(stale.baseUrl, '/answer');
    await raw(stale.baseUrl, '/answer');
    expect(stale.fastifyCount()).toBe(2);
    await app.close();

    const answer = cachedAnswer('{}');
    const guarded = await smallApp({ access: true, fresh: () => answer });
    app = guarded.server;
    await raw(guarded.baseUrl, '/answer');
    await raw(guarded.baseUrl, '/answer');
    expect(guarded.fastifyCount()).toBe(2);
  });
});
