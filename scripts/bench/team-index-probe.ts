import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * What another client sees while heavy work runs in this process (issue 31's "without blocking
 * other requests for more than 50 ms at a time"): an HTTP server on loopback answering `answer`
 * (the overview), one client asking it again and again over a real socket, node's event-loop
 * delay monitor (1 ms resolution) and a 10 ms interval probe (how late each tick came).
 */
export interface Stalls {
  /** The longest the event loop was held (monitorEventLoopDelay's max). */
  loopMaxMs: number;
  /** The latest a 10 ms interval tick came, beyond its 10 ms. */
  probeMaxMs: number;
  /** Overview requests answered meanwhile, and the slowest of them. */
  requests: number;
  slowestRequestMs: number;
  /** The work's own wall time. */
  workMs: number;
}

const now = (): number => Number(process.hrtime.bigint()) / 1e6;

export async function serveAnswer(answer: () => Promise<string>): Promise<{
  url: string;
  /** The longest one answer took on the server, since the last call (what it held the loop). */
  slowestAnswerMs: () => number;
  close: () => Promise<void>;
}> {
  let slowest = 0;
  const server: Server = createServer((_req, res) => {
    const start = now();
    answer().then(
      (body) => {
        slowest = Math.max(slowest, now() - start);
        res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      },
      (error: unknown) => res.writeHead(500).end(String(error)),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/overview`,
    slowestAnswerMs: () => {
      const value = slowest;
      slowest = 0;
      return value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Runs `work` while a client asks `url` without pause; the stalls seen meanwhile. */
export async function whileClientAsks(url: string, work: () => Promise<void>): Promise<Stalls> {
  let running = true;
  let requests = 0;
  let slowestRequestMs = 0;
  const client = (async () => {
    while (running) {
      const start = now();
      const response = await fetch(url);
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`the overview answered ${response.status}`);
      requests += 1;
      slowestRequestMs = Math.max(slowestRequestMs, now() - start);
    }
  })();
  let probeMaxMs = 0;
  let last = now();
  const probe = setInterval(() => {
    const at = now();
    probeMaxMs = Math.max(probeMaxMs, at - last - 10);
    last = at;
  }, 10);
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const start = now();
  try {
    await work();
  } finally {
    running = false;
    delay.disable();
    clearInterval(probe);
  }
  const workMs = now() - start;
  await client;
  return { loopMaxMs: delay.max / 1e6, probeMaxMs, requests, slowestRequestMs, workMs };
}
