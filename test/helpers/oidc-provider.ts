import { createPrivateKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createServer, request as httpRequest, type Server } from 'node:http';
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
  close(): Promise<void>;
}

/** People who can sign in (login name → claims); the dev login form takes any password. */
export const PEOPLE: Record<string, { name: string; email: string; groups: string[] }> = {
  vera: { name: 'Vera Viewer', email: 'vera@example.com', groups: ['staff'] },
  eddie: { name: 'Eddie Editor', email: 'eddie@example.com', groups: ['staff', 'risk-editors'] },
  ada: { name: 'Ada Admin', email: 'ada@example.com', groups: ['risk-admins'] },
  mallory: { name: 'Mallory', email: 'mallory@elsewhere.test', groups: ['risk-admins'] },
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

/** `appOrigin`: where the dashboard is (`http://127.0.0.1:<port>`), for its registered URLs. */
export async function startTestProvider(appOrigin: string): Promise<TestProvider> {
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
  const relay = createServer((incoming, outgoing) => {
    const tamper = change !== null && incoming.method === 'POST' && incoming.url === '/token';
    const upstream = httpRequest(
      {
        host: '127.0.0.1',
        port: providerPort,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (answer) => {
        if (!tamper || answer.statusCode !== 200) {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<
            string,
            unknown
          >;
          if (typeof body.id_token === 'string' && change)
            body.id_token = resign(body.id_token, resignWith, change);
          const text = JSON.stringify(body);
          const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(text)) };
          outgoing.writeHead(200, headers);
          outgoing.end(text);
        });
      },
    );
    incoming.pipe(upstream);
    upstream.on('error', () => outgoing.destroy());
  });
  const relayPort = await listen(relay, 'localhost');
  const issuer = `http://localhost:${relayPort}`;
  const clientId = 'dashboard';
  const clientSecret = 'a-client-secret-for-the-loopback-provider';

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        token_endpoint_auth_method: 'client_secret_post',
        redirect_uris: [`${appOrigin}/auth/callback`],
        post_logout_redirect_uris: [`${appOrigin}/auth/signed-out`],
      },
    ],
    jwks: { keys: [jwk] },
    findAccount: (_ctx: unknown, id: string) => {
      const person = PEOPLE[id];
      if (!person) return undefined;
      return { accountId: id, claims: () => ({ sub: id, ...person, email_verified: true }) };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups'] },
    // Scope claims in the ID token itself (as Entra ID and Keycloak can be set to do).
    conformIdTokenClaims: false,
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
