import { describe, expect, it } from 'vitest';
import { isPageLoad } from '../../scripts/vite/offline-worker';
import { keepsApiAnswer } from '../../src/shared/offline-answers';

/*
 * Issue 32, point 3: what the service worker keeps. Its two rules are the ones Workbox copies
 * into dist/client/sw.js; test/e2e/offline.test.ts shows them at work in Chromium.
 */
const ORIGIN = 'http://127.0.0.1:3000';
const kept = (path: string, sameOrigin = true) =>
  keepsApiAnswer({ url: new URL(path, ORIGIN), sameOrigin });

describe('the offline worker’s rules', () => {
  it('keeps the answers the overview and a country page read', () => {
    for (const path of [
      '/api/v1/hotspots?limit=50',
      '/api/v1/country/UKR',
      '/api/status',
      '/api/me',
      '/api/countries',
      '/api/history/global',
      '/api/history/country/UKR?range=90d',
      '/api/changes',
      '/api/sites',
      '/api/sites/12',
      '/api/events',
    ]) {
      expect(kept(path), path).toBe(true);
    }
  });

  it('never keeps sign-in, embeds, feeds, tokens, sessions, exports or a credential in the URL', () => {
    for (const path of [
      '/auth/callback?code=x',
      '/api/embeds',
      '/api/embeds/3',
      '/api/feeds/watchlist/1.atom',
      '/api/feed-tokens',
      '/api/tokens',
      '/api/sessions',
      '/api/audit',
      '/api/v1/export?format=csv',
      '/api/spreadsheet/countries',
      '/api/sites/alert-delivery',
      '/api/watchlists',
      '/api/v1/hotspots?token=abc',
      '/api/v1/country/UKR?api_key=abc',
      '/api/status?Secret=1',
    ]) {
      expect(kept(path), path).toBe(false);
    }
    expect(kept('/api/v1/hotspots', false)).toBe(false);
  });

  it('answers page loads, but not sign-in, sign-out, embeds or the API', () => {
    const load = (path: string) =>
      isPageLoad({ request: { mode: 'navigate' } as Request, url: new URL(path, ORIGIN) });
    expect(load('/')).toBe(true);
    expect(load('/country/UKR?range=1y')).toBe(true);
    for (const path of ['/login', '/logout', '/auth/callback', '/embed/abc', '/api/status']) {
      expect(load(path), path).toBe(false);
    }
    const fetchOfPage = { request: { mode: 'cors' } as Request, url: new URL('/', ORIGIN) };
    expect(isPageLoad(fetchOfPage)).toBe(false);
  });
});
