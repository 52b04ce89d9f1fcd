import { createPrivateKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/**
 * A real OpenID provider (oidc-provider, the certified implementation) on loopback for sign-in
 * tests. It is reached through a relay that passes everything on unchanged, unless a test asks
 * it to alter the ID token the token endpoint returns (re-signed with the provider's own key, so
 * only the altered claim is wrong): that is how a wrong audience reaches the dashboard.
 *
 * The provider's name is `localhost` and the app's `127.0.0.1`, so their cookies stay apart.
 */
export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /**
   * What the token endpoint's next ID tokens carry instead (null: unchanged), signed with the
   * provider's key, or with a key of the test's own (`forged`).
   */
  alterIdToken(
    change: ((claims: Record<string, unknown>) => void) | null,
    signer?: 'provider' | 'forged',
  ): void;
  /** What the UserInfo endpoint's next answers carry instead (null: unchanged). */
  alterUserInfo(change: ((claims: Record<string, unknown>) => void) | null): void;
  /** This provider's people: change someone's groups here and the provider says so from then on. */
  people: Record<string, Person>;
  close(): Promise<void>;
}

export interface Person {
  name: string;
  email: string;
  groups: string[];
  /** As the provider sends it (default true); a string "false" is what some directories send. */
  email_verified?: unknown;
}

/** People who can sign in (login name → claims); the dev login form takes any password. */
export const PEOPLE: Readonly<Record<string, Readonly<Person>>> = {
  vera: { name: 'Vera Viewer', email: 'vera@example.com', groups: ['staff'] },
  eddie: { name: 'Eddie Editor', email: 'eddie@example.com', groups: ['staff', 'risk-editors'] },
  alice: { name: 'Alice Analyst', email: 'alice@example.com', groups: ['staff', 'risk-editors'] },
  ada: { name: 'Ada Admin', email: 'ada@example.com', groups: ['risk-admins'] },
  mallory: { name: 'Mallory', email: 'mallory@elsewhere.test', groups: ['risk-admins'] },
  una: {
    name: 'Una Unverified',
    email: 'una@example.com',
    groups: ['risk-admins'],
    email_verified: 'false',
  },
};

/**
 * How the provider releases claims, as real ones do (OpenID Connect Core 1.0 §5.4):
 * - `default`: oidc-provider as shipped (conformIdTokenClaims on): the ID token carries `sub`
 *   only; name, e-mail and groups (under the `profile` scope) come from UserInfo.
 * - `id-token`: scope claims in the ID token too (as Entra ID and Keycloak can be set to do).
 * - `groups-scope`: as `default`, but `groups` is released only for a `groups` scope (Okta).
 * - `keycloak`: roles nested as `realm_access: {roles: [...]}` under a `roles` scope, and a
 *   refresh token with every sign-in (Keycloak issues one by default).
 */
export type ProviderShape = 'default' | 'id-token' | 'groups-scope' | 'keycloak';

const CLAIMS_OF: Record<ProviderShape, Record<string, string[]>> = {
  default: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups'] },
  'id-token': { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups'] },
  'groups-scope': {
    openid: ['sub'],
    email: ['email', 'email_verified'],
    profile: ['name'],
    groups: ['groups'],
  },
  keycloak: {
    openid: ['sub'],
    email: ['email', 'email_verified'],
    profile: ['name', 'preferred_username'],
    roles: ['realm_access'],
  },
};

function base64url(value: Buffer | string): string {
  return Buffer.from(value).toString('base64url');
}

/** The same JWT with its payload changed, signed again with the provider's key (RS256). */
function resign(
  jwt: string,
  key: KeyObject,
  change: (claims: Record<string, unknown>) => void,
): string {
  const [header = '', payload = ''] = jwt.split('.');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
  change(claims);
  const body = `${header}.${base64url(JSON.stringify(claims))}`;
  return `${body}.${base64url(sign('sha256', Buffer.from(body), key))}`;
}

async function listen(server: Server, host: string): Promise<number> {
  await new Promise<void>((done) => server.listen(0, host, done));
  return (server.address() as AddressInfo).port;
}

/** A JSON answer with its body changed (content-length set again). */
function rewriteJson(
  answer: IncomingMessage,
  outgoing: ServerResponse,
  change: (body: Record<string, unknown>) => void,
): void {
  const chunks: Buffer[] = [];
  answer.on('data', (chunk: Buffer) => chunks.push(chunk));
  answer.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
    change(body);
    const text = JSON.stringify(body);
    const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(text)) };
    outgoing.writeHead(200, headers);
    outgoing.end(text);
  });
}

/**
 * `appOrigin`: where the dashboard is (`http://127.0.0.1:<port>`), for its registered URLs;
 * `shape`: how the provider releases claims (default `id-token`, what the first tests assumed).
 */
export async function startTestProvider(
  appOrigin: string,
  { shape = 'id-token' }: { shape?: ProviderShape } = {},
): Promise<TestProvider> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = {
    ...privateKey.export({ format: 'jwk' }),
    kid: 'test-key',
    use: 'sig',
    alg: 'RS256',
  };
  const signingKey = createPrivateKey({ key: jwk, format: 'jwk' });
  let change: ((claims: Record<string, unknown>) => void) | null = null;
  let resignWith = signingKey;

  // The relay listens first: its address is the provider's issuer.
  let providerPort = 0;
  let userInfoChange: ((claims: Record<string, unknown>) => void) | null = null;
  const relay = createServer((incoming, outgoing) => {
    const idTokenChange =
      change !== null && incoming.method === 'POST' && incoming.url === '/token' ? change : null;
    const userInfo = userInfoChange !== null && incoming.url === '/me' ? userInfoChange : null;
    const upstream = httpRequest(
      {
        host: '127.0.0.1',
        port: providerPort,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (answer) => {
        if (answer.statusCode === 200 && idTokenChange !== null) {
          rewriteJson(answer, outgoing, (body) => {
            if (typeof body.id_token === 'string') {
              body.id_token = resign(body.id_token, resignWith, idTokenChange);
            }
          });
        } else if (answer.statusCode === 200 && userInfo !== null) {
          rewriteJson(answer, outgoing, userInfo);
        } else {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        }
      },
    );
    incoming.pipe(upstream);
    upstream.on('error', () => outgoing.destroy());
  });
  const relayPort = await listen(relay, 'localhost');
  const issuer = `http://localhost:${relayPort}`;
  const clientId = 'dashboard';
  const clientSecret = 'a-client-secret-for-the-loopback-provider';

  const people: Record<string, Person> = structuredClone({ ...PEOPLE });
  const keycloak = shape === 'keycloak';
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        token_endpoint_auth_method: 'client_secret_post',
        redirect_uris: [`${appOrigin}/auth/callback`],
        post_logout_redirect_uris: [`${appOrigin}/auth/signed-out`],
        grant_types: keycloak ? ['authorization_code', 'refresh_token'] : ['authorization_code'],
      },
    ],
    jwks: { keys: [jwk] },
    // Asked at every token and UserInfo answer: a change to `people` shows from then on.
    findAccount: (_ctx: unknown, id: string) => {
      const person = people[id];
      if (!person) return undefined;
      const { groups, ...rest } = person;
      return {
        accountId: id,
        claims: () => ({
          sub: id,
          email_verified: true,
          ...rest,
          preferred_username: id,
          ...(keycloak ? { realm_access: { roles: groups } } : { groups }),
        }),
      };
    },
    claims: CLAIMS_OF[shape],
    // Only the `id-token` shape puts scope claims in the ID token itself.
    ...(shape === 'id-token' ? { conformIdTokenClaims: false } : {}),
    ...(keycloak ? { issueRefreshToken: () => true } : {}),
    pkce: { required: () => true },
    cookies: { keys: ['a-cookie-key-for-the-loopback-provider'] },
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
  });
  const server = createServer(provider.callback());
  providerPort = await listen(server, '127.0.0.1');

  return {
    issuer,
    clientId,
    clientSecret,
    alterIdToken: (next, signer = 'provider') => {
      change = next;
      resignWith =
        signer === 'provider'
          ? signingKey
          : generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    },
    alterUserInfo: (next) => {
      userInfoChange = next;
    },
    people,
    close: async () => {
      await new Promise<void>((done) => relay.close(() => done()));
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

/** A browser's cookies at the provider (its name differs from the app's: they stay apart). */
class Jar {
  readonly #cookies = new Map<string, string>();

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      this.#cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
  }

  header(): string {
    return [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/**
 * What a browser does at the provider, over real HTTP with its own cookies: from `location` (the
 * app's redirect to the provider) through the development login form as `login`, then consent;
 * answers the URL under `appOrigin` the provider sends the browser back to (the callback).
 */
export async function signInAtProvider(
  location: string,
  appOrigin: string,
  login: string,
): Promise<string> {
  const jar = new Jar();
  let url = location;
  let form: URLSearchParams | null = null;
  for (let hop = 0; hop < 20; hop++) {
    if (url.startsWith(appOrigin)) return url;
    const response: Response = await fetch(url, {
      redirect: 'manual',
      method: form ? 'POST' : 'GET',
      headers: {
        cookie: jar.header(),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form?.toString(),
    });
    jar.take(response);
    form = null;
    if (response.status >= 300 && response.status < 400) {
      url = new URL(response.headers.get('location') ?? '', url).href;
      continue;
    }
    const page: string = await response.text();
    // The development login form, then the consent form: both post back to the interaction.
    form = page.includes('name="login"')
      ? new URLSearchParams({ prompt: 'login', login, password: 'any' })
      : new URLSearchParams({ prompt: 'consent' });
  }
  throw new Error('the provider never sent the browser back');
}
