import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoUpstream, type DemoUpstream } from '../../src/demo-upstream/server.js';
import { buildApp } from '../../src/server/compose/app.js';
import { createLogger } from '../../src/server/logger.js';
import { Secret } from '../../src/server/secret.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { openAppStore } from '../helpers/history-store.js';
import { testConfig } from '../helpers/test-config.js';

/*
 * Nothing secret in a log line whatever fails (issue 18, point 4). A watchlist insert carrying
 * the webhook secret the server just made is forced to fail for real (a check constraint that
 * refuses every row): the error drizzle throws has the secret in its message, stack and `params`,
 * the driver's cause has the whole row in `detail`. The app's own logger must write the failure
 * without any of them.
 */
const lines: string[] = [];
let upstream: DemoUpstream;
let store: HistoryStore;
let app: FastifyInstance;

beforeAll(async () => {
  upstream = await startDemoUpstream({ host: '127.0.0.1', port: 0 });
  store = await openAppStore();
  app = (
    await buildApp(
      testConfig({
        alerts: { webhookAllowPrivate: true, email: null, linkBase: null },
        server: { logLevel: 'info' },
      }),
      {
        upstream: {
          mode: 'demo',
          baseUrl: upstream.url,
          apiKey: new Secret(upstream.issueKey('Pro')),
        },
        historyStore: store,
        logger: createLogger('info', { write: (line: string) => void lines.push(line) }),
      },
    )
  ).app;
}, 60_000);
afterAll(async () => {
  await app?.close();
  await store?.close();
  await upstream?.close();
});

describe('a failed query holding a webhook secret', () => {
  it('is logged with its SQL and cause, never with the secret or the parameters', async () => {
    await store.db.execute(
      sql`alter table watchlists add constraint refuse_every_row check (false) not valid`,
    );
    const reply = await app.inject({
      method: 'POST',
      url: '/api/watchlists',
      payload: {
        name: 'Secret keeper',
        countries: ['MLI'],
        webhook_url: 'http://127.0.0.1:9/hook',
      },
    });
    expect(reply.statusCode).toBe(500);
    expect(reply.body).not.toContain('whsec_');

    const failure = lines.find((line) => line.includes('request failed'));
    expect(failure, lines.join('\n')).toBeDefined();
    // The line says what failed (the statement, the constraint), so the test sees a real failure.
    expect(failure).toContain('insert into');
    expect(failure).toContain('refuse_every_row');
    const all = lines.join('\n');
    expect(all).not.toMatch(/whsec_(?!\[redacted\])/);
    expect(all).not.toContain('params:');
    expect(all).not.toContain('Failing row contains');
  });
});
