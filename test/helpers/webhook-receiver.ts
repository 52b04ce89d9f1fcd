import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string | undefined;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface WebhookReceiver {
  url: string;
  received: Received[];
  /** How the next requests are answered (status and headers), in order; then 200. Status 0: never answer. */
  answers: Array<{ status: number; headers?: Record<string, string> }>;
  /** Resolves once `n` requests have arrived. */
  waitFor(n: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** A real HTTP server on a loopback port that records every POST (the receiving end). */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: Received[] = [];
  const answers: WebhookReceiver['answers'] = [];
  const waiters: Array<{ n: number; resolve: (r: Received[]) => void }> = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      received.push({
        method: request.method,
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const answer = answers.shift() ?? { status: 200 };
      if (answer.status !== 0) {
        response.writeHead(answer.status, answer.headers ?? {});
        response.end('ok');
      }
      for (const w of [...waiters]) {
        if (received.length >= w.n) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(received.slice());
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    answers,
    waitFor: (n) =>
      received.length >= n
        ? Promise.resolve(received.slice())
        : new Promise((resolve) => waiters.push({ n, resolve })),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
