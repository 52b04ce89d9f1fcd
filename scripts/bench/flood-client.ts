// The flooding client of scripts/bench/flood.ts, in its own process so that its JavaScript does
// not share an event loop with the client whose latency is measured.
//   flood-client.ts <base url> <path prefix> <total> <connections>
// Prints one JSON line: { requests, non200, seconds }.

import { performance } from 'node:perf_hooks';

const [base = '', prefix = '', totalText = '0', connectionsText = '1'] = process.argv.slice(2);
const total = Number(totalText);
let sent = 0;
let non200 = 0;
// The parent starts measuring the other client once the flood runs.
process.stdout.write('flooding\n');
const started = performance.now();
const worker = async (): Promise<void> => {
  while (sent < total) {
    sent++;
    const label = `x${Math.random().toString(36).slice(2, 14)}`;
    const res = await fetch(base + prefix + label);
    await res.arrayBuffer();
    if (res.status !== 200) non200++;
  }
};
await Promise.all(Array.from({ length: Number(connectionsText) }, worker));
const seconds = (performance.now() - started) / 1000;
process.stdout.write(`${JSON.stringify({ requests: sent, non200, seconds })}\n`);
