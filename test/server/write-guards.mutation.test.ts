import { connect } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { installCrossSiteGuard } from '../../src/server/plugins/cross-site.js';
import { collectRoutes, installRoles, isWrite, needs } from '../../src/server/plugins/roles.js';
import type { Principal } from '../../src/server/principal.js';
import type { Role } from '../../src/shared/roles.js';

/*
 * The two guards every write passes, on a bare Fastify app (milliseconds a case, so mutation
 * testing can run them on every mutant): the role default-deny (plugins/roles.ts) and the
 * cross-site guard (plugins/cross-site.ts). Each case pins a line a one-line change would break
 * while the whole-app tests (roles, routed-path-guards, access-plugin) went on passing.
 */
let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const ok = async () => ({ ok: true });

describe('the role default-deny', () => {
  /** An app whose requests act for the role in `x-role` (as access control would set it). */
  async function rolesApp(): Promise<FastifyInstance> {
    const built = Fastify();
    built.decorateRequest('principal', null);
    built.addHook('onRequest', async (request) => {
      const role = request.headers['x-role'] as Role | undefined;
      if (role)
        request.principal = {
          name: role,
          email: null,
          subject: null,
          role,
          via: 'proxy',
        } as Principal;
    });
    collectRoutes(built);
    installRoles(built);
    built.route({
      method: ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'],
      url: '/undeclared',
      handler: ok,
    });
    built.post('/editors', needs('editor'), ok);
    built.post('/admins', needs('admin'), ok);
    built.post('/sign-in', { config: { signInFree: true } }, ok);
    app = built;
    return built;
  }

  it('takes reads of a route that declares no role, in any spelling of the method, and refuses every write', async () => {
    const built = await rolesApp();
    for (const method of ['GET', 'HEAD', 'OPTIONS'] as const) {
      expect((await built.inject({ method, url: '/undeclared' })).statusCode, method).toBe(200);
    }
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      const refused = await built.inject({
        method,
        url: '/undeclared',
        headers: { 'x-role': 'admin' },
      });
      expect(refused.statusCode, method).toBe(403);
      expect(refused.json()).toEqual({
        ok: false,
        error: 'Nobody may do this: the action declares no role',
      });
    }
    expect(['get', 'Head', 'options'].map(isWrite)).toEqual([false, false, false]);
    expect(['post', 'Delete'].map(isWrite)).toEqual([true, true]);
  });

  it('lists every method of a route registered with several', async () => {
    const built = await rolesApp();
    expect(built.registeredRoutes().map((r) => `${r.method} ${r.url}`)).toEqual([
      ...['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'].map(
        (m) => `${m} /undeclared`,
      ),
      'POST /editors',
      'POST /admins',
      'POST /sign-in',
    ]);
    const undeclared = built.registeredRoutes().filter((r) => r.url === '/undeclared');
    expect(undeclared.map((r) => r.method)).toEqual([
      'GET',
      'HEAD',
      'OPTIONS',
      'POST',
      'PUT',
      'PATCH',
      'DELETE',
    ]);
    expect(built.registeredRoutes().find((r) => r.url === '/editors')).toEqual({
      method: 'POST',
      url: '/editors',
      role: 'editor',
      signInFree: false,
    });
    expect(built.registeredRoutes().find((r) => r.url === '/sign-in')?.signInFree).toBe(true);
  });

  it('lets sign-in through before anyone is known, and a write to no route is a 404, not a refusal', async () => {
    const built = await rolesApp();
    expect(
      (await built.inject({ method: 'POST', url: '/sign-in', headers: { 'x-role': 'viewer' } }))
        .statusCode,
    ).toBe(200);
    const missing = await built.inject({ method: 'POST', url: '/nowhere' });
    expect(missing.statusCode).toBe(404);
  });

  it('refuses a role below the declared one in words, and takes it and the roles above', async () => {
    const built = await rolesApp();
    const viewer = await built.inject({
      method: 'POST',
      url: '/editors',
      headers: { 'x-role': 'viewer' },
    });
    expect(viewer.statusCode).toBe(403);
    expect(viewer.json().error).toBe(
      'Your role (viewer) may not do this: it needs an editor or above. Ask an admin if you need it.',
    );
    for (const role of ['editor', 'admin']) {
      expect(
        (await built.inject({ method: 'POST', url: '/editors', headers: { 'x-role': role } }))
          .statusCode,
        role,
      ).toBe(200);
    }
    for (const role of ['viewer', 'editor']) {
      const refused = await built.inject({
        method: 'POST',
        url: '/admins',
        headers: { 'x-role': role },
      });
      expect(refused.json().error).toBe(
        `Your role (${role}) may not do this: it needs an admin. Ask an admin if you need it.`,
      );
    }
    // No access control configured: anyone acts as an admin.
    expect((await built.inject({ method: 'POST', url: '/editors' })).statusCode).toBe(200);
  });
});

describe('the cross-site guard', () => {
  function guardedApp(behindTls: boolean, trustProxy = false): FastifyInstance {
    const built = Fastify({ trustProxy });
    installCrossSiteGuard(built, behindTls);
    built.route({
      method: ['GET', 'HEAD', 'OPTIONS', 'POST', 'DELETE'],
      url: '/thing',
      handler: ok,
    });
    app = built;
    return built;
  }
  const host = 'dash.example';

  it('lets reads through from anywhere; refuses writes from another site, each in its words', async () => {
    const built = guardedApp(false);
    const elsewhere = { host, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
    for (const method of ['GET', 'HEAD', 'OPTIONS'] as const) {
      expect(
        (await built.inject({ method, url: '/thing', headers: elsewhere })).statusCode,
        method,
      ).toBe(200);
    }
    const bySite = await built.inject({ method: 'DELETE', url: '/thing', headers: elsewhere });
    expect(bySite.statusCode).toBe(403);
    expect(bySite.json().error).toBe(
      'Refused: a DELETE from another site (Sec-Fetch-Site: cross-site) may not change anything here',
    );
    // A header's value is cut in the answer (a refusal never echoes a long header back whole).
    const long = await built.inject({
      method: 'POST',
      url: '/thing',
      headers: { host, 'sec-fetch-site': 'x'.repeat(40) },
    });
    expect(long.json().error).toBe(
      `Refused: a POST from another site (Sec-Fetch-Site: ${'x'.repeat(20)}) may not change anything here`,
    );
    const byOrigin = await built.inject({
      method: 'POST',
      url: '/thing',
      headers: { host, origin: 'https://evil.example' },
    });
    expect(byOrigin.statusCode).toBe(403);
    expect(byOrigin.json()).toEqual({
      ok: false,
      error: 'Refused: the request comes from another origin and may not change anything here',
    });
  });

  it('takes writes from its own origin, with the scheme the TLS setting says', async () => {
    const plain = guardedApp(false);
    const post = (built: FastifyInstance, origin: string) =>
      built.inject({ method: 'POST', url: '/thing', headers: { host, origin } });
    expect((await post(plain, `http://${host}`)).statusCode).toBe(200);
    expect((await post(plain, `https://${host}`)).statusCode).toBe(403);
    // An empty Origin says nothing, as no Origin at all (scripts, curl).
    expect((await post(plain, '')).statusCode).toBe(200);
    await plain.close();
    const tls = guardedApp(true);
    expect((await post(tls, `https://${host}`)).statusCode).toBe(200);
    expect((await post(tls, `http://${host}`)).statusCode).toBe(403);
    await tls.close();
    // Not told it is behind TLS, but the request itself came over HTTPS (here: a trusted proxy).
    const proxied = guardedApp(false, true);
    const overHttps = await proxied.inject({
      method: 'POST',
      url: '/thing',
      headers: { host, origin: `https://${host}`, 'x-forwarded-proto': 'https' },
    });
    expect(overHttps.statusCode).toBe(200);
  });

  it('refuses a write with an Origin but no Host (HTTP/1.0): it has no origin of its own', async () => {
    const built = guardedApp(false);
    const address = await built.listen({ host: '127.0.0.1', port: 0 });
    const { port } = new URL(address);
    // inject always writes a Host: a raw socket can leave it out.
    const status = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.end('POST /thing HTTP/1.0\r\nOrigin: http://undefined\r\nContent-Length: 0\r\n\r\n');
      });
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
      socket.on('end', () => resolve(text.split('\r\n')[0] ?? ''));
      socket.on('error', reject);
    });
    expect(status).toMatch(/^HTTP\/1\.[01] 403 /);
  });

  it('takes a write the browser says is from this origin (Sec-Fetch-Site: same-origin)', async () => {
    const built = guardedApp(false);
    const sameOrigin = await built.inject({
      method: 'POST',
      url: '/thing',
      headers: { host, origin: `http://${host}`, 'sec-fetch-site': 'same-origin' },
    });
    expect(sameOrigin.statusCode).toBe(200);
  });
});
