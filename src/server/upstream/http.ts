import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Transport-level failure: the connection failed or a deadline passed. */
export class TransportError extends Error {
  override name = 'TransportError';
  constructor(
    readonly kind: 'network' | 'timeout',
    message: string,
  ) {
    super(message);
  }
}

export interface TransportOptions {
  connectMs: number;
  requestMs: number;
  /** Larger bodies are cut off: a runaway upstream must not exhaust memory. */
  maxBytes: number;
}

/**
 * GET over node:http(s) with a keep-alive agent. node:http rather than `fetch` because Node 20's
 * fetch has no connect timeout without adding undici as a dependency; here the connect deadline
 * is a timer cleared on the socket's `connect`, the whole-request deadline a second timer, and
 * both destroy the request, so no socket is left behind.
 */
export class Transport {
  readonly #http = new HttpAgent({ keepAlive: true, maxSockets: 16 });
  readonly #https = new HttpsAgent({ keepAlive: true, maxSockets: 16 });

  constructor(private readonly options: TransportOptions) {}

  get(url: URL, headers: Record<string, string>): Promise<RawResponse> {
    const { connectMs, requestMs, maxBytes } = this.options;
    const secure = url.protocol === 'https:';
    const send = secure ? httpsRequest : httpRequest;
    return new Promise<RawResponse>((resolve, reject) => {
      let settled = false;
      const timers: NodeJS.Timeout[] = [];
      const finish = (error: Error | null, response?: RawResponse): void => {
        if (settled) return;
        settled = true;
        timers.forEach(clearTimeout);
        if (error) reject(error);
        else resolve(response as RawResponse);
      };
      const req = send(url, {
        method: 'GET',
        headers,
        agent: secure ? this.#https : this.#http,
      });
      const fail = (error: Error): void => {
        req.destroy();
        finish(error);
      };
      timers.push(
        setTimeout(
          () => fail(new TransportError('timeout', `no complete answer within ${requestMs} ms`)),
          requestMs,
        ),
      );
      req.on('socket', (socket) => {
        if (!socket.connecting) return;
        const connectTimer = setTimeout(
          () => fail(new TransportError('timeout', `no connection within ${connectMs} ms`)),
          connectMs,
        );
        timers.push(connectTimer);
        socket.once('connect', () => clearTimeout(connectTimer));
      });
      req.on('error', (error) => finish(new TransportError('network', describe(error))));
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            fail(new TransportError('network', `answer larger than ${maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('error', (error) => finish(new TransportError('network', describe(error))));
        res.on('aborted', () => finish(new TransportError('network', 'connection closed early')));
        res.on('end', () =>
          finish(null, {
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
      });
      req.end();
    });
  }

  close(): void {
    this.#http.destroy();
    this.#https.destroy();
  }
}

function describe(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code ? `connection failed (${code})` : 'connection failed';
}

/** Keeps commas literal in list parameters (`tier=crit,high`), as the API's examples write them. */
export function queryString(query: Record<string, string>): string {
  const parts = Object.entries(query).map(
    ([name, value]) =>
      `${encodeURIComponent(name)}=${encodeURIComponent(value).replace(/%2C/g, ',')}`,
  );
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}
