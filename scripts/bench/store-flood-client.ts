// The flooding clients of scripts/bench/store-flood.ts, in their own process so that their
// JavaScript does not share an event loop with the client whose latency is measured.
//   store-flood-client.ts <base url> <total> <clients> <connections per client> <ISO,ISO,...>
// Each client is one address as the BFF sees it (X-Forwarded-For from the trusted proxy
// 127.0.0.1). Every request asks the store something no earlier request asked (a random time to
// the second), so no memoised answer serves it. Prints one JSON line:
// { requests, byStatus: { "200": n, "429": n, ... }, seconds }.

import { performance } from 'node:perf_hooks';

const [base = '', totalText = '0', clientsText = '1', perClientText = '1', isoText = ''] =
  process.argv.slice(2);
const total = Number(totalText);
const codes = isoText.split(',').filter(Boolean);
const WORDS = ['protest', 'flood', 'strike', 'border', 'election', 'attack', 'drought', 'talks'];
const DAY_MS = 86_400_000;

const pick = <T>(values: readonly T[]): T => values[Math.floor(Math.random() * values.length)]!;
/** A time to the second within the last 90 days: a question nobody asked before. */
const someTime = (): string =>
  new Date(Date.now() - Math.floor(Math.random() * 90 * DAY_MS)).toISOString().slice(0, 19) + 'Z';

/** History series, changes, compare (a country's series) and the event archive, in turn. */
function nextPath(n: number): string {
  switch (n % 5) {
    case 0:
      return `/api/history/country/${pick(codes)}?from=${someTime()}`;
    case 1:
      return `/api/history/global?from=${someTime()}`;
    case 2:
      return `/api/changes?since=${someTime()}`;
    case 3:
      return `/api/events?q=${pick(WORDS)}&from=${someTime()}`;
    default:
      return `/api/events?iso=${pick(codes)}&limit=100&to=${someTime()}`;
  }
}

let sent = 0;
const byStatus: Record<string, number> = {};
process.stdout.write('flooding\n');
const started = performance.now();
const connection = async (client: number): Promise<void> => {
  const headers = { 'x-forwarded-for': `10.0.${client}.1` };
  while (sent < total) {
    const path = nextPath(sent++);
    const res = await fetch(base + path, { headers });
    await res.arrayBuffer();
    byStatus[res.status] = (byStatus[res.status] ?? 0) + 1;
  }
};
const clients = Number(clientsText);
const perClient = Number(perClientText);
await Promise.all(Array.from({ length: clients * perClient }, (_, i) => connection(i % clients)));
const seconds = (performance.now() - started) / 1000;
process.stdout.write(`${JSON.stringify({ requests: sent, byStatus, seconds })}\n`);
