import { Agent, createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { credentialsFor, type AuthMode } from './auth-modes.js';

export interface IdentityProxy {
  /** Where clients reach the BFF through the proxy, e.g. http://127.0.0.1:41235. */
  url: string;
  close(): Promise<void>;
}

/** Headers about one connection, which each hop sets for itself. */
const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection'];

function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const kept = { ...headers };
  for (const name of HOP_BY_HOP) delete kept[name];
  return kept;
}

/**
 * A loopback reverse proxy in front of the BFF at `target`, as an authenticating proxy sits in
 * front of it in TRUSTED_PROXY_AUTH_HEADER mode: it forwards every request (method, path,
 * headers, body streamed both ways) from 127.0.0.1, the address the BFF trusts, adding `identity`
 * to each, so a browser's link downloads carry them too, which Playwright's `extraHTTPHeaders`
 * miss (microsoft/playwright#30656). A request's own identity headers win, as in the server
 * tests' inject (auth-modes.ts): a test that names a person of its own is that person.
 */
export async function startIdentityProxy(
  target: string,
  identity: Record<string, string>,
): Promise<IdentityProxy> {
  const { hostname, port } = new URL(target);
  const agent = new Agent({ keepAlive: true });
  const server = createServer((incoming, outgoing) => {
    const forwarded = request(
      {
        agent,
        host: hostname,
        port,
        method: incoming.method,
        path: incoming.url,
        // The Host header stays the client's, so the BFF's host and origin checks see the
        // address the browser used.
        headers: { ...identity, ...endToEnd(incoming.headers) },
      },
      (answer) => {
        outgoing.writeHead(
          answer.statusCode ?? 502,
          answer.statusMessage,
          endToEnd(answer.headers),
        );
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => {
      if (!outgoing.headersSent) outgoing.writeHead(502).end();
      else outgoing.destroy();
    });
    // A client that leaves (a closed event stream) ends the forwarded request too.
    outgoing.on('close', () => {
      if (!outgoing.writableFinished) forwarded.destroy();
    });
    incoming.pipe(forwarded);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port: own } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${own}`,
    close: async () => {
      const closed = new Promise<void>((done) => server.close(() => done()));
      server.closeAllConnections();
      agent.destroy();
      await closed;
    },
  };
}

/**
 * Where a mode's clients reach the BFF listening at `ownUrl`: through an identity proxy adding
 * an admin's headers in proxy mode, else directly (closing then does nothing).
 */
export async function frontFor(mode: AuthMode | null, ownUrl: string): Promise<IdentityProxy> {
  if (mode !== 'proxy') return { url: ownUrl, close: async () => {} };
  return startIdentityProxy(ownUrl, credentialsFor('proxy'));
}

/**
 * `frontFor` the app listening on loopback; when the proxy cannot start, `closeStack` closes
 * what the caller started before the error goes on.
 */
export async function frontForApp(
  mode: AuthMode | null,
  app: { server: { address(): AddressInfo | string | null } },
  closeStack: () => Promise<void>,
): Promise<IdentityProxy> {
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  try {
    return await frontFor(mode, `http://127.0.0.1:${port}`);
  } catch (error) {
    await closeStack();
    throw error;
  }
}
