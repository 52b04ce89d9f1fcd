import {
  startDemoUpstream,
  type DemoTier,
  type DemoUpstream,
  type DemoUpstreamOptions,
} from '../../src/demo-upstream/server.js';

/**
 * A demo upstream on a loopback port with a hand-driven clock, plus a tiny fetch helper. Tests
 * move `clock.now` instead of sleeping.
 */

/** Thursday 15 January 2026, 12:00 UTC: the 10:00 batch is in force. */
export const T0 = Date.UTC(2026, 0, 15, 12, 0, 0);

export interface Harness {
  upstream: DemoUpstream;
  clock: { now: number };
  /** A Pro key issued at start. */
  key: string;
  get(path: string, key?: string | null): Promise<Response>;
  getJson(path: string, key?: string | null): Promise<JsonAnswer>;
  close(): Promise<void>;
}

export interface JsonAnswer {
  status: number;
  headers: Headers;
  // Test code inspects arbitrary JSON; the assertions are the type checks.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export async function startHarness(
  options: DemoUpstreamOptions & { tier?: DemoTier; start?: number } = {},
): Promise<Harness> {
  const { tier, start, ...demoOptions } = options;
  const clock = { now: start ?? T0 };
  const upstream = await startDemoUpstream({ now: () => clock.now, ...demoOptions });
  const key = upstream.issueKey(tier ?? 'Pro');
  const get = (path: string, useKey: string | null = key): Promise<Response> =>
    fetch(`${upstream.url}${path}`, {
      headers: useKey === null ? {} : { authorization: `Bearer ${useKey}` },
    });
  return {
    upstream,
    clock,
    key,
    get,
    async getJson(path, useKey) {
      const response = await get(path, useKey);
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: JSON.parse(text) };
    },
    close: () => upstream.close(),
  };
}
