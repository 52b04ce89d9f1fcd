import type { LookupAddress } from 'node:dns';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendWebhook, type SendOptions } from '../../src/server/jobs/webhook-sender.js';
import { newWebhookSecret } from '../../src/server/services/alerts/watchlists.js';

/*
 * The webhook sender between its address check and the connection (jobs/webhook-sender.ts):
 * the check again on the address actually connected to (a DNS answer that changes in between,
 * as in rebinding), the connect timeout, and a name with no address, each with Node's lookup in
 * both of its modes (every address at once, the default, or one address with
 * --no-network-family-autoselection). Each case pins a line webhook-sender.test.ts and
 * webhook-answers.test.ts let change.
 */

/** A plain TCP listener on loopback that counts connections (it never speaks TLS). */
let listener: net.Server;
let connections = 0;
let port = 0;
const sockets = new Set<net.Socket>();
beforeAll(async () => {
  listener = net.createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    socket.end();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as AddressInfo).port;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => listener?.close(resolve));
});

type Resolve = (
  host: string,
  options: unknown,
  callback: (error: Error | null, addresses: LookupAddress[]) => void,
) => void;

const options = (resolve: Resolve, connectTimeoutMs = 2000): SendOptions => ({
  allowPrivate: false,
  connectTimeoutMs,
  totalTimeoutMs: 5000,
  resolve: resolve as unknown as SendOptions['resolve'],
});

const send = (host: string, resolve: Resolve, connectTimeoutMs?: number) =>
  sendWebhook(
    { url: `https://${host}:${port}/hook`, secret: newWebhookSecret() },
    'msg_connect',
    '{}',
    options(resolve, connectTimeoutMs),
  );

/** Node's lookup mode for the cases of `fn`: every address at once (true) or one (false). */
async function withFamilyAutoselection<T>(on: boolean, fn: () => Promise<T>): Promise<T> {
  const before = net.getDefaultAutoSelectFamily();
  net.setDefaultAutoSelectFamily(on);
  try {
    return await fn();
  } finally {
    net.setDefaultAutoSelectFamily(before);
  }
}

describe.each([true, false])('Node looking up every address at once: %s', (allAtOnce) => {
  it('an answer that turns into loopback after the check is refused on connect, never sent', async () => {
    // A public address when the guard reads it, loopback when Node connects.
    let reads = 0;
    const rebinding: Resolve = (_host, _options, callback) =>
      callback(null, [
        {
          get address() {
            reads += 1;
            return reads === 1 ? '93.184.215.14' : '127.0.0.1';
          },
          family: 4,
        },
      ]);
    const before = connections;
    const result = await withFamilyAutoselection(allAtOnce, () =>
      send('rebind.example.test', rebinding),
    );
    expect(result).toMatchObject({
      status: null,
      retryable: false,
      error: 'refused to send: 127.0.0.1 is a loopback, private or link-local address',
    });
    expect(reads).toBeGreaterThan(1);
    // The TCP connection was made (that is where the check runs), but nothing was sent on it.
    expect(connections).toBe(before + 1);
  });

  it('a name whose lookup never answers gives up at the connect timeout, retryably', async () => {
    const silent: Resolve = () => {};
    const result = await withFamilyAutoselection(allAtOnce, () =>
      send('silent.example.test', silent, 100),
    );
    expect(result).toMatchObject({
      status: null,
      retryable: true,
      error: 'no connection within 100 ms',
    });
  });
});

describe('Node looking up one address', () => {
  it('a name with no address is a network error that names it, retryably', async () => {
    const empty: Resolve = (_host, _options, callback) => callback(null, []);
    const result = await withFamilyAutoselection(false, () => send('empty.example.test', empty));
    expect(result).toMatchObject({
      status: null,
      retryable: true,
      error: 'network error: empty.example.test has no address',
    });
  });
});
