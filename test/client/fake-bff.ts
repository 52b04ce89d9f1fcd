import { vi } from 'vitest';

/**
 * The network boundary of component tests: `fetch` answers from a table of routes keyed by path
 * (with query string when it matters). Every request is recorded; an unknown path answers 599 so
 * a test that calls something unexpected fails visibly.
 */
export type Answer = { status?: number; body: unknown; headers?: Record<string, string> };
/** A function route also gets the request's init (method, headers, body), for writes. */
export type Route = Answer | ((url: URL, init?: RequestInit) => Answer);

export interface FakeBff {
  requests: URL[];
  set(path: string, route: Route): void;
  /** Requests whose path (without query) is `path`. */
  calls(path: string): URL[];
}

export function installFakeBff(routes: Record<string, Route>): FakeBff {
  const table = new Map(Object.entries(routes));
  const requests: URL[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://dashboard.test');
      requests.push(url);
      const route = table.get(`${url.pathname}${url.search}`) ?? table.get(url.pathname);
      if (!route) {
        return new Response(
          JSON.stringify({ ok: false, error: `no fixture for ${url.pathname}` }),
          {
            status: 599,
          },
        );
      }
      const answer = typeof route === 'function' ? route(url, init) : route;
      return new Response(JSON.stringify(answer.body), {
        status: answer.status ?? 200,
        headers: { 'Content-Type': 'application/json', ...answer.headers },
      });
    }),
  );
  return {
    requests,
    set: (path, route) => table.set(path, route),
    calls: (path) => requests.filter((url) => url.pathname === path),
  };
}
