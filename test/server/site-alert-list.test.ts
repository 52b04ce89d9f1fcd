import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { openAppStore } from '../helpers/history-store.js';
import { startHistoryStack, type HistoryStack } from '../helpers/history-stack.js';

/*
 * Issue 33, point 12: the "Our sites" list exists when sites exist, not because someone opened
 * /exposure (which asks GET /api/sites/alert-delivery), and it says it is the site rule's list.
 */
let store: HistoryStore;
let stack: HistoryStack;
beforeAll(async () => {
  store = await openAppStore();
  stack = await startHistoryStack(store, { start: Date.UTC(2026, 2, 1, 8) });
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await store?.close();
});

interface Listed {
  id: string;
  name: string;
  site_alerts?: boolean;
}
const lists = async (): Promise<Listed[]> =>
  (await stack.app.inject({ url: '/api/watchlists' })).json().watchlists;

describe('the "Our sites" list', () => {
  it('is not made by asking where site alerts go while there are no sites', async () => {
    const asked = await stack.app.inject({ url: '/api/sites/alert-delivery' });
    expect(asked.statusCode).toBe(404);
    expect(asked.json()).toEqual({ ok: false, error: expect.stringMatching(/no sites yet/) });
    expect((await lists()).map((list) => list.name)).not.toContain('Our sites');
  });

  it("comes with the first site and says it is the site rule's list", async () => {
    const made = await stack.app.inject({
      method: 'POST',
      url: '/api/sites',
      payload: { ref: 'B1', name: 'Bamako office', kind: 'office', lat: 12.64, lng: -8.0 },
    });
    expect(made.statusCode, made.body).toBe(201);
    const ours = (await lists()).filter((list) => list.name === 'Our sites');
    expect(ours).toHaveLength(1);
    expect(ours[0]?.site_alerts).toBe(true);
    const one = await stack.app.inject({ url: `/api/watchlists/${ours[0]?.id}` });
    expect(one.json().watchlist.site_alerts).toBe(true);
    const delivery = await stack.app.inject({ url: '/api/sites/alert-delivery' });
    expect(delivery.statusCode).toBe(200);
    expect(delivery.json().watchlist.id).toBe(ours[0]?.id);
  });
});
