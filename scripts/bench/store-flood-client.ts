// The flooding clients of scripts/bench/store-flood.ts, in their own process so that their
// JavaScript does not share an event loop with the client whose latency is measured.
//   store-flood-client.ts <base url> <total> <clients> <connections per client> <ISO,ISO,...>
// Each client is one address as the BFF sees it (X-Forwarded-For from the trusted proxy
// 127.0.0.1). Every request asks something no earlier request asked (a random time to the
// second): no memoised answer is exactly it, though a series the BFF already holds whole answers
// it without a store query. Prints one JSON line:
// { requests, byStatus: { "200": n, "429": n, ... }, byKind: { kind: { status: n } }, seconds }.

import { performance } from 'node:perf_hooks';
import { QUESTION_KINDS, questionPath } from './store-flood-paths.js';

const [base = '', totalText = '0', clientsText = '1', perClientText = '1', isoText = ''] =
  process.argv.slice(2);
const total = Number(totalText);
const codes = isoText.split(',').filter(Boolean);

let sent = 0;
const byStatus: Record<string, number> = {};
const byKind: Record<string, Record<string, number>> = {};
process.stdout.write('flooding\n');
const started = performance.now();
const connection = async (client: number): Promise<void> => {
  const headers = { 'x-forwarded-for': `10.0.${client}.1` };
  while (sent < total) {
    // History series, changes, compare (a country's series) and the event archive, in turn.
    const kind = QUESTION_KINDS[sent++ % QUESTION_KINDS.length]!;
    const res = await fetch(base + questionPath(kind, codes), { headers });
    await res.arrayBuffer();
    byStatus[res.status] = (byStatus[res.status] ?? 0) + 1;
    const statuses = (byKind[kind] ??= {});
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
  }
};
const clients = Number(clientsText);
const perClient = Number(perClientText);
await Promise.all(Array.from({ length: clients * perClient }, (_, i) => connection(i % clients)));
const seconds = (performance.now() - started) / 1000;
process.stdout.write(`${JSON.stringify({ requests: sent, byStatus, byKind, seconds })}\n`);
