import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { siteListQueries } from '../../src/client/lib/site-list-queries';
import { site, sitesBody } from './fixtures/sites';

/*
 * `/api/sites` answers a page at a time; the list query follows the cursors and joins the pages,
 * so the map layer, the country page and /exposure still read every site.
 */
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the sites list query', () => {
  it('follows next_cursor across pages and joins them, filters kept on every page', async () => {
    const asked: string[] = [];
    const pages: Record<string, object> = {
      '': {
        ...sitesBody([site({ id: 1 }), site({ id: 2 })]),
        total: 3,
        matched: 3,
        next_cursor: '2',
      },
      '2': { ...sitesBody([site({ id: 3 })]), total: 3, matched: 3 },
    };
    vi.stubGlobal('fetch', async (path: string) => {
      asked.push(path);
      const cursor = new URL(path, 'http://x').searchParams.get('cursor') ?? '';
      return new Response(JSON.stringify(pages[cursor]), {
        headers: { 'content-type': 'application/json' },
      });
    });
    const client = new QueryClient();
    const got = await client.fetchQuery(
      siteListQueries.list({ tiers: [], countries: ['UKR'], kinds: [], tag: null }),
    );
    expect(got.data.sites.map((s) => s.id)).toEqual([1, 2, 3]);
    expect(got.data.next_cursor).toBeNull();
    expect(asked).toEqual([
      '/api/sites?country=UKR&limit=2000',
      '/api/sites?country=UKR&limit=2000&cursor=2',
    ]);
  });
});
