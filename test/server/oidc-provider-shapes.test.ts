import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '../../src/server/config.js';
import { ROLE_RECHECK_MS, UNVERIFIED_GRACE_MS } from '../../src/server/plugins/oidc-recheck.js';
import { Secret } from '../../src/server/secret.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { startHistoryStack, type HistoryStack } from '../helpers/history-stack.js';
import { openAppStore } from '../helpers/history-store.js';
import {
  signInAtProvider,
  startTestProvider,
  type ProviderShape,
  type TestProvider,
} from '../helpers/oidc-provider.js';

/*
 * OpenID Connect as providers really release claims (issue 30), against oidc-provider (the
 * certified implementation) in four shapes: as shipped (name, e-mail and groups from UserInfo
 * only), with claims in the ID token, with groups released for a `groups` scope only (Okta), and
 * with Keycloak's nested `realm_access.roles`. In each, Alice of `risk-editors` signs in with her
 * name, e-mail and the editor role, and may make a team watchlist. Then: a role removed at the
 * provider reaches a live session within the re-check interval, and UserInfo answering for
 * another person, or an e-mail the provider has not verified, refuses the sign-in.
 */
const APP = 'http://127.0.0.1:3998';
const HOUR = 3_600_000;

interface ShapeCase {
  shape: ProviderShape;
  scopes?: string[];
  roleClaim: string;
}

const SHAPES: ShapeCase[] = [
  { shape: 'default', roleClaim: 'groups' },
  { shape: 'id-token', roleClaim: 'groups' },
  { shape: 'groups-scope', scopes: ['openid', 'profile', 'email', 'groups'], roleClaim: 'groups' },
  {
    shape: 'keycloak',
    scopes: ['openid', 'profile', 'email', 'roles'],
    roleClaim: 'realm_access.roles',
  },
];

let store: HistoryStore;
beforeAll(async () => {
  store = await openAppStore();
}, 60_000);
afterAll(async () => {
  await store?.close();
});

function cookieOf(response: LightMyRequestResponse, name: string): string | undefined {
  return response.cookies.find((cookie) => cookie.name === name)?.value;
}

/** A provider of `shape` and the dashboard signing in with it (e-mail at example.com only). */
function withProvider(shapeCase: ShapeCase) {
  const parts = {} as { provider: TestProvider; stack: HistoryStack; app: FastifyInstance };
  beforeAll(async () => {
    parts.provider = await startTestProvider(APP, { shape: shapeCase.shape });
    const access: AppConfig['access'] = {
      dashboardToken: null,
      trustedProxyAuthHeader: null,
      allowAnonymous: false,
      oidc: {
        issuerUrl: parts.provider.issuer,
        clientId: parts.provider.clientId,
        clientSecret: new Secret(parts.provider.clientSecret),
        redirectUrl: `${APP}/auth/callback`,
        roleClaim: shapeCase.roleClaim,
        ...(shapeCase.scopes ? { scopes: shapeCase.scopes } : {}),
        allowedEmailDomains: ['example.com'],
      },
      roles: { editors: ['risk-editors'], admins: ['risk-admins'] },
      sessionLifetimes: { idleMs: 8 * HOUR, absoluteMs: 7 * 24 * HOUR },
    };
    parts.stack = await startHistoryStack(store, { start: Date.now(), config: { access } });
    parts.app = parts.stack.app;
  }, 60_000);
  afterAll(async () => {
    await parts.stack?.close();
    await parts.provider?.close();
  });
  return parts;
}

/** Through the provider's login and consent as `login`; the app's answer to the callback. */
async function callback(app: FastifyInstance, login: string): Promise<LightMyRequestResponse> {
  const start = await app.inject({ url: '/auth/login?return_to=/watchlists' });
  expect(start.statusCode).toBe(303);
  const pending = cookieOf(start, 'grd_signin') ?? '';
  const back = await signInAtProvider(start.headers.location as string, APP, login);
  return app.inject({ url: back.slice(APP.length), cookies: { grd_signin: pending } });
}

async function signIn(app: FastifyInstance, login: string): Promise<string> {
  const done = await callback(app, login);
  expect(done.statusCode, done.body).toBe(303);
  expect(done.headers.location).toBe('/watchlists');
  return cookieOf(done, 'grd_session') ?? '';
}

const me = (app: FastifyInstance, session: string) =>
  app.inject({ url: '/api/me', cookies: { grd_session: session } });

describe.each(SHAPES)('a provider of shape $shape', (shapeCase) => {
  const parts = withProvider(shapeCase);

  it('signs Alice of risk-editors in with her name, e-mail and the editor role', async () => {
    const { app } = parts;
    const alice = await signIn(app, 'alice');
    const who = (await me(app, alice)).json();
    expect({ name: who.name, email: who.email, role: who.role }).toEqual({
      name: 'Alice Analyst',
      email: 'alice@example.com',
      role: 'editor',
    });
    const made = await app.inject({
      method: 'POST',
      url: '/api/watchlists',
      cookies: { grd_session: alice },
      payload: { name: `Sahel (${shapeCase.shape})`, countries: ['MLI'] },
    });
    expect(made.statusCode, made.body).toBe(201);
  });

  it('a role removed at the provider reaches the live session within the re-check interval', async () => {
    const { app, provider, stack } = parts;
    const ada = await signIn(app, 'ada');
    expect((await me(app, ada)).json().role).toBe('admin');
    provider.people.ada!.groups = ['staff', 'risk-editors'];
    try {
      stack.clock.advance(ROLE_RECHECK_MS - 60_000);
      expect((await me(app, ada)).json().role).toBe('admin');
      stack.clock.advance(2 * 60_000);
      expect((await me(app, ada)).json().role).toBe('editor');
      const tokens = await app.inject({ url: '/api/sessions', cookies: { grd_session: ada } });
      expect(tokens.statusCode).toBe(403);
      // And a group given back counts the same way.
      provider.people.ada!.groups = ['risk-admins'];
      stack.clock.advance(ROLE_RECHECK_MS + 1000);
      expect((await me(app, ada)).json().role).toBe('admin');
    } finally {
      provider.people.ada!.groups = ['risk-admins'];
    }
  });
});

describe('what the provider says is checked', () => {
  const parts = withProvider({ shape: 'default', roleClaim: 'groups' });

  it('a UserInfo answer for another subject refuses the sign-in (OpenID Connect Core §5.3.2)', async () => {
    parts.provider.alterUserInfo((claims) => {
      claims.sub = 'ada';
      claims.groups = ['risk-admins'];
    });
    try {
      const done = await callback(parts.app, 'vera');
      expect(done.statusCode).toBe(400);
      expect(done.body).toContain('UserInfo answer names another person');
      expect(cookieOf(done, 'grd_session')).toBeUndefined();
    } finally {
      parts.provider.alterUserInfo(null);
    }
  });

  it('email_verified sent as the string "false" fails the e-mail domain check', async () => {
    const done = await callback(parts.app, 'una');
    expect(done.statusCode).toBe(403);
    expect(done.body).toContain('has not verified the address una@example.com');
    expect(cookieOf(done, 'grd_session')).toBeUndefined();
  });

  it('e-mail domains are checked on the merged claims: an outside address is refused', async () => {
    const done = await callback(parts.app, 'mallory');
    expect(done.statusCode).toBe(403);
    expect(done.body).toContain('only addresses at example.com may sign in');
  });
});

describe('a person the provider no longer knows', () => {
  const parts = withProvider({
    shape: 'keycloak',
    scopes: ['openid', 'profile', 'email', 'roles'],
    roleClaim: 'realm_access.roles',
  });

  it('is signed out at the next re-check (the refresh is refused)', async () => {
    const { app, provider, stack } = parts;
    const eddie = await signIn(app, 'eddie');
    expect((await me(app, eddie)).statusCode).toBe(200);
    const kept = provider.people.eddie!;
    delete provider.people.eddie;
    try {
      stack.clock.advance(ROLE_RECHECK_MS + 1000);
      expect((await me(app, eddie)).statusCode).toBe(401);
    } finally {
      provider.people.eddie = kept;
    }
  });
});

describe('a provider that cannot be reached', () => {
  const parts = withProvider({ shape: 'default', roleClaim: 'groups' });

  it('leaves the role for an hour after its last answer, then the session is a viewer', async () => {
    const { app, provider, stack } = parts;
    const ada = await signIn(app, 'ada');
    await provider.close();
    stack.clock.advance(ROLE_RECHECK_MS + 1000);
    expect((await me(app, ada)).json().role).toBe('admin');
    stack.clock.advance(UNVERIFIED_GRACE_MS);
    const after = await me(app, ada);
    expect(after.statusCode).toBe(200);
    expect(after.json().role).toBe('viewer');
  });
});
