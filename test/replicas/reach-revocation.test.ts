import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type PostgresServer } from '../helpers/postgres-server.js';
import {
  startReplicaCluster,
  waitUntil,
  type Replica,
  type ReplicaCluster,
} from '../helpers/replica-cluster.js';

/*
 * Feed tokens and embeds across replicas (issue 34): made on one replica, used on the other;
 * revoked on the first, refused on the second at its very next use (their state is the store's,
 * read on every use, never a copy kept in one process).
 */
let postgres: PostgresServer;
let cluster: ReplicaCluster;
let a: Replica;
let b: Replica;

beforeAll(async () => {
  postgres = await startPostgres();
  cluster = await startReplicaCluster({ replicas: 2, postgres });
  [a, b] = cluster.replicas as [Replica, Replica];
});
afterAll(async () => {
  await cluster?.close();
  await postgres?.stop();
});

const post = (replica: Replica, path: string, body: object) =>
  fetch(`${replica.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: replica.url },
    body: JSON.stringify(body),
  });

describe('a revoked feed token and embed', () => {
  it('are refused on the other replica at their next use', async () => {
    const token = (await (
      await post(a, '/api/feed-tokens', { name: 'sheet', feeds: ['countries'], expires_in_days: 3 })
    ).json()) as { secret: string; token: { id: string } };
    const embed = (await (
      await post(a, '/api/embeds', {
        name: 'map',
        view: 'map',
        origin: 'https://intranet.example.com',
        expires_in_days: 3,
      })
    ).json()) as { url: string; embed: { id: string } };
    const feedOnB = () => fetch(`${b.url}/api/feeds/countries.csv?token=${token.secret}`);
    const embedOnB = () => fetch(`${b.url}${new URL(embed.url).pathname}`);
    // The first batch is recorded by the leader: until then the feed has nothing to show.
    await waitUntil(
      'a feed read on B',
      async () => (await feedOnB()).status === 200,
      60_000,
      () => cluster.diagnostics(),
    );
    expect((await embedOnB()).status).toBe(200);

    const del = (path: string) =>
      fetch(`${a.url}${path}`, { method: 'DELETE', headers: { origin: a.url } });
    expect((await del(`/api/feed-tokens/${token.token.id}`)).status).toBe(200);
    expect((await del(`/api/embeds/${embed.embed.id}`)).status).toBe(200);

    const feed = await feedOnB();
    expect(feed.status).toBe(403);
    expect(((await feed.json()) as { error: string }).error).toMatch(
      /^This feed token was revoked/,
    );
    const page = await embedOnB();
    expect(page.status).toBe(403);
    expect(((await page.json()) as { error: string }).error).toMatch(/^This embed was revoked/);
  });
});
