import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import {
  signInAtProvider,
  startTestProvider,
  type TestProvider,
} from '../helpers/oidc-provider.js';
import { startPostgres, type PostgresServer } from '../helpers/postgres-server.js';
import {
  startReplicaCluster,
  waitUntil,
  type Replica,
  type ReplicaCluster,
} from '../helpers/replica-cluster.js';

/*
 * Two replicas share sign-in sessions (issue 21): a person signs in through one replica against
 * a real OpenID provider on loopback (oidc-provider) and is recognised by the other; an admin's
 * revocation on one is refused on the other at once (the news travels by NOTIFY; without it the
 * other replica would go on trusting the session it had seen for a minute).
 */
let provider: TestProvider;
let postgres: PostgresServer;
let cluster: ReplicaCluster;
/**
 * The callback address registered at the provider. Its replica is chosen by the test: the
 * provider's answer is taken to the replica that started the sign-in, as nginx would.
 */
let appOrigin: string;

beforeAll(async () => {
  appOrigin = `http://127.0.0.1:${await freePort()}`;
  provider = await startTestProvider(appOrigin);
  postgres = await startPostgres();
  cluster = await startReplicaCluster({
    replicas: 2,
    postgres,
    env: {
      OIDC_ISSUER_URL: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
      OIDC_REDIRECT_URL: `${appOrigin}/auth/callback`,
      OIDC_EDITORS: 'risk-editors',
      OIDC_ADMINS: 'risk-admins',
    },
  });
});
afterAll(async () => {
  await cluster?.close();
  await postgres?.stop();
  await provider?.close();
});

function cookie(response: Response, name: string): string | undefined {
  for (const line of response.headers.getSetCookie()) {
    const [pair = ''] = line.split(';');
    if (pair.startsWith(`${name}=`)) return pair.slice(name.length + 1);
  }
  return undefined;
}

/** The whole sign-in, started and finished on `replica`; answers the session cookie. */
async function signIn(replica: Replica, login: string): Promise<string> {
  const start = await fetch(`${replica.url}/auth/login?return_to=/`, { redirect: 'manual' });
  expect(start.status).toBe(303);
  const pending = cookie(start, 'grd_signin');
  const callback = await signInAtProvider(start.headers.get('location') ?? '', appOrigin, login);
  const done = await fetch(`${replica.url}${callback.slice(appOrigin.length)}`, {
    redirect: 'manual',
    headers: { cookie: `grd_signin=${pending}` },
  });
  expect(done.status, await done.clone().text()).toBe(303);
  const session = cookie(done, 'grd_session');
  if (!session) throw new Error(`no session from ${replica.name}`);
  return session;
}

const call = (replica: Replica, path: string, session: string, method = 'GET') =>
  fetch(`${replica.url}${path}`, {
    method,
    headers: { cookie: `grd_session=${session}`, origin: replica.url },
  });

describe('two replicas', () => {
  it('a person signed in through one is recognised by the other', async () => {
    const [one, two] = cluster.replicas as [Replica, Replica];
    const ada = await signIn(one, 'ada');
    const me = await call(two, '/api/me', ada);
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ name: 'Ada Admin', role: 'admin', via: 'oidc' });
    // The other replica's audit log has the sign-in the first one recorded.
    const log = await call(two, '/api/audit?action=sign-in', ada);
    expect(await log.json()).toMatchObject({
      entries: [{ who: { name: 'Ada Admin' }, action: 'sign-in', status: 303 }],
    });
  });

  it("an admin's revocation on one replica is refused at once on the other", async () => {
    const [one, two] = cluster.replicas as [Replica, Replica];
    const vera = await signIn(one, 'vera');
    // Both replicas have seen the session valid (each now remembers it).
    expect((await call(one, '/api/me', vera)).status).toBe(200);
    expect((await call(two, '/api/me', vera)).status).toBe(200);

    const ada = await signIn(two, 'ada');
    const listed = (await (await call(two, '/api/sessions', ada)).json()) as {
      sessions: { id: string; name: string; address: string }[];
    };
    const target = listed.sessions.find((s) => s.name === 'Vera Viewer');
    expect(target?.address).toBe('127.0.0.1');
    const ended = await call(two, `/api/sessions/${target?.id}`, ada, 'DELETE');
    expect(ended.status).toBe(200);
    expect((await call(two, '/api/me', vera)).status).toBe(401);
    // Seconds, not the minute a replica otherwise trusts a session it has seen.
    await waitUntil(
      'the first replica to refuse the revoked session',
      async () => (await call(one, '/api/me', vera)).status === 401,
      5_000,
      cluster.diagnostics,
    );
  });
});
