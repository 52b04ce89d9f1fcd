import { vi } from 'vitest';

/**
 * The network boundary of component tests: `fetch` answers from a table of routes keyed by path
 * (with query string when it matters). Every request is recorded.
 *
 * The fake is strict: a request it has no route for (or a write to a route that only answers
 * GET) still gets an answer, 599, so the screen does not hang, but it is recorded as unanswered,
 * and `failUnansweredRequests` (run after each test by setup.ts) fails the test naming it. So
 * does a request still waiting for its answer when the test ends, unless the test held it on
 * purpose with `hold`. A screen that calls a wrong URL, or a test that lacks a fixture the screen
 * needs, fails instead of passing on an empty panel.
 */
export type Answer = {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
  /** The method a plain answer serves: GET (and HEAD) unless said. */
  method?: string;
};
/**
 * A plain answer serves one method (GET unless it says); a function route gets every method and
 * the request's init (method, headers, body), for writes.
 */
export type Route = Answer | ((url: URL, init?: RequestInit) => Answer);

export interface FakeBff {
  requests: URL[];
  set(path: string, route: Route): void;
  /** Requests whose path (without query) is `path`. */
  calls(path: string): URL[];
  /**
   * Requests whose path (without query) is `path` get no answer until `release` is called: an
   * answer that is slow on purpose. A request still held when the test ends is expected and
   * does not fail it (it is answered then, so nothing waits on it past the test).
   */
  hold(path: string): { release(): void };
}

interface Unanswered {
  what: string;
  why: string;
}

interface Installed {
  unanswered: Unanswered[];
  /** Requests that came in and have not been answered yet, held ones included. */
  pending: Map<number, { what: string; held: boolean }>;
  fetch: typeof fetch;
  /** What `fetch` was before the fake: a test may put it back (vi.unstubAllGlobals). */
  before: typeof fetch;
  releaseHeld(): void;
}

// The fakes the running test installed: setup.ts checks them after each test and forgets them.
const installed: Installed[] = [];

export function installFakeBff(routes: Record<string, Route>): FakeBff {
  const table = new Map(Object.entries(routes));
  const requests: URL[] = [];
  const unanswered: Unanswered[] = [];
  const pending: Installed['pending'] = new Map();
  const held = new Map<string, { waiting: Array<() => void>; released: boolean }>();
  let sequence = 0;

  const answerOf = (url: URL, init?: RequestInit): Response => {
    const method = (init?.method ?? 'GET').toUpperCase();
    const what = `${method} ${url.pathname}${url.search}`;
    const route = table.get(`${url.pathname}${url.search}`) ?? table.get(url.pathname);
    const serves = typeof route === 'object' ? (route.method ?? 'GET').toUpperCase() : null;
    if (!route || (serves && method !== serves && !(serves === 'GET' && method === 'HEAD'))) {
      unanswered.push({
        what,
        why: route ? `the route answers ${serves} only` : 'no fixture for this path',
      });
      return new Response(JSON.stringify({ ok: false, error: `no fixture for ${what}` }), {
        status: 599,
      });
    }
    const answer = typeof route === 'function' ? route(url, init) : route;
    const status = answer.status ?? 200;
    // A 304 (or 204) has no body.
    if (status === 304 || status === 204) {
      return new Response(null, { status, headers: answer.headers });
    }
    return new Response(JSON.stringify(answer.body), {
      status,
      headers: { 'Content-Type': 'application/json', ...answer.headers },
    });
  };

  const fakeFetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://dashboard.test');
    requests.push(url);
    const id = ++sequence;
    const what = `${(init?.method ?? 'GET').toUpperCase()} ${url.pathname}${url.search}`;
    const hold = held.get(url.pathname);
    pending.set(id, { what, held: Boolean(hold && !hold.released) });
    try {
      if (hold && !hold.released) {
        await new Promise<void>((resolve) => hold.waiting.push(resolve));
      }
      return answerOf(url, init);
    } finally {
      pending.delete(id);
    }
  });
  const before = globalThis.fetch;
  vi.stubGlobal('fetch', fakeFetch);

  installed.push({
    unanswered,
    pending,
    fetch: fakeFetch as typeof fetch,
    before,
    releaseHeld: () => {
      for (const hold of held.values()) {
        hold.released = true;
        hold.waiting.splice(0).forEach((resolve) => resolve());
      }
    },
  });
  return {
    requests,
    set: (path, route) => table.set(path, route),
    calls: (path) => requests.filter((url) => url.pathname === path),
    hold: (path) => {
      const hold = { waiting: [] as Array<() => void>, released: false };
      held.set(path, hold);
      return {
        release: () => {
          hold.released = true;
          hold.waiting.splice(0).forEach((resolve) => resolve());
        },
      };
    },
  };
}

/**
 * Run after each client test (setup.ts): throws, failing the test, when the fake recorded a
 * request it could not answer or one is still waiting for its answer. Held requests are let
 * through first; they were expected to wait.
 */
export function failUnansweredRequests(): void {
  const fakes = installed.splice(0);
  const problems: string[] = [];
  for (const fake of fakes) {
    problems.push(...fake.unanswered.map(({ what, why }) => `${what}: ${why}`));
    for (const { what, held } of fake.pending.values()) {
      if (!held) problems.push(`${what}: still waiting for its answer when the test ended`);
    }
    fake.releaseHeld();
  }
  const last = fakes.at(-1);
  if (last && globalThis.fetch !== last.fetch && globalThis.fetch !== fakes[0]?.before) {
    // A stand-in of the test's own in front of the fake sees requests the fake never does
    // (one that never answers, one that answers itself): hold them with the fake instead.
    problems.push("fetch was replaced after installFakeBff: use the fake's hold() or set()");
  }
  if (problems.length > 0) {
    throw new Error(
      `The fake BFF could not answer ${problems.length} request(s) of this test; give the test ` +
        `the fixture the screen needs, or fix the URL the screen asks for:\n  ` +
        [...new Set(problems)].join('\n  '),
    );
  }
}
