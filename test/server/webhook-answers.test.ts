import type { LookupAddress } from 'node:dns';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendWebhook, type SendOptions } from '../../src/server/jobs/webhook-sender.js';
import { refusedUrl } from '../../src/server/services/alerts/address-policy.js';
import { newWebhookSecret } from '../../src/server/services/alerts/watchlists.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

/*
 * One webhook attempt against a real receiver on loopback: what is sent besides the signature,
 * and how each kind of answer is told in the delivery log. Each case here was a one-line change
 * of webhook-sender.ts that no test caught.
 */
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver?.close();
});

const loopback: SendOptions = { allowPrivate: true, connectTimeoutMs: 2000, totalTimeoutMs: 2000 };
const send = (body = '{}') =>
  sendWebhook({ url: receiver.url, secret: newWebhookSecret() }, 'msg_edge', body, loopback);

describe('what is sent', () => {
  it('JSON with its length in bytes, our user agent and the time in seconds', async () => {
    const n = receiver.received.length;
    const before = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({ headline: 'Côte d’Ivoire' });
    await send(body);
    const [got] = (await receiver.waitFor(n + 1)).slice(n);
    expect(got!.method).toBe('POST');
    expect(got!.body).toBe(body);
    expect(got!.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'GlobalRiskDashboard-Webhooks/1',
      'content-length': String(Buffer.byteLength(body)),
    });
    const timestamp = Number(got!.headers['webhook-timestamp']);
    expect(timestamp).toBeGreaterThanOrEqual(before);
    expect(timestamp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
  });
});

describe('how an answer is told', () => {
  it.each([200, 204, 299])('%i is a success: no error, nothing to retry', async (status) => {
    receiver.answers.push({ status });
    const result = await send();
    expect(result).toMatchObject({ status, error: null, retryable: false });
    // How long the attempt took, for the delivery log (not a moment in time).
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(result.durationMs).toBeLessThan(60_000);
  });

  it('stops reading an answer after 4 KB: an endless body still settles as its status', async () => {
    const endless = createServer((_request, response) => {
      response.writeHead(200);
      const chunk = Buffer.alloc(1024, 'x');
      const more = (): void => {
        while (!response.destroyed && response.write(chunk));
        if (!response.destroyed) response.once('drain', more);
      };
      more();
    });
    await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = endless.address() as AddressInfo;
      const result = await sendWebhook(
        { url: `http://127.0.0.1:${port}/hook`, secret: newWebhookSecret() },
        'msg_big',
        '{}',
        { ...loopback, totalTimeoutMs: 5000 },
      );
      expect(result).toMatchObject({ status: 200, error: null });
    } finally {
      endless.closeAllConnections();
      await new Promise<void>((resolve) => endless.close(() => resolve()));
    }
  });

  it.each([300, 302, 399])('%i is a redirect, not followed', async (status) => {
    receiver.answers.push({ status, headers: { location: 'https://elsewhere.example/' } });
    expect(await send()).toMatchObject({
      error: `answered ${status} (redirects are not followed)`,
      retryable: false,
    });
  });

  it.each([
    [400, false],
    [499, false],
    [500, true],
  ] as const)('%i is told as a plain answer (retryable: %s)', async (status, retryable) => {
    receiver.answers.push({ status });
    expect(await send()).toMatchObject({ error: `answered ${status}`, retryable });
  });

  it('reads Retry-After as an HTTP date, never as a negative wait', async () => {
    const later = new Date(Date.now() + 120_000).toUTCString();
    receiver.answers.push({ status: 503, headers: { 'retry-after': later } });
    const result = await send();
    expect(result.retryAfterMs).toBeGreaterThan(60_000);
    expect(result.retryAfterMs).toBeLessThanOrEqual(120_000);
    receiver.answers.push({
      status: 503,
      headers: { 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' },
    });
    expect((await send()).retryAfterMs).toBe(0);
  });

  it('has no wait when Retry-After is missing or not a time', async () => {
    receiver.answers.push({ status: 503 });
    expect((await send()).retryAfterMs).toBeNull();
    receiver.answers.push({ status: 503, headers: { 'retry-after': 'soon' } });
    expect((await send()).retryAfterMs).toBeNull();
    receiver.answers.push({ status: 503, headers: { 'retry-after': '12abc' } });
    expect((await send()).retryAfterMs).toBeNull();
    receiver.answers.push({ status: 503, headers: { 'retry-after': 'soon12' } });
    expect((await send()).retryAfterMs).toBeNull();
  });
});

describe('URLs refused before any connection', () => {
  it.each(['https://user@hooks.example.com/x', 'https://:secret@hooks.example.com/x'])(
    '%s: no credentials in a webhook URL',
    (url) => {
      expect(refusedUrl(url, false)).toBe('webhook_url must not contain a user name or password');
    },
  );

  it('a bracketed IPv6 host is judged without its brackets', () => {
    expect(refusedUrl('https://[fe80::1]/x', false)).toBe(
      'webhook_url is not allowed: fe80::1 is a loopback, private or link-local address',
    );
    expect(refusedUrl('https://[2606:4700:4700::1111]/x', false)).toBeNull();
  });
});

describe('names looked up before connecting', () => {
  const options = (resolve: unknown): SendOptions => ({
    allowPrivate: false,
    connectTimeoutMs: 500,
    totalTimeoutMs: 2000,
    resolve: resolve as SendOptions['resolve'],
  });

  it('a name that does not resolve is a network error, retryably', async () => {
    const resolve = (_host: string, _options: unknown, callback: (e: Error) => void) =>
      callback(Object.assign(new Error('queryA ENOTFOUND'), { code: 'ENOTFOUND' }));
    const result = await sendWebhook(
      { url: 'https://nowhere.example.test/hook', secret: newWebhookSecret() },
      'msg_dns',
      '{}',
      options(resolve),
    );
    expect(result).toMatchObject({
      status: null,
      retryable: true,
      error: 'network error: ENOTFOUND',
    });
  });

  it('asks the resolver for every address of the name, and lets a public one through', async () => {
    const asked: unknown[] = [];
    // As dns.lookup does: a list only when asked for all addresses, else one address.
    const resolve = (
      _host: string,
      opts: { all?: boolean },
      callback: (e: null, a: LookupAddress[] | string, f?: number) => void,
    ) => {
      asked.push(opts.all);
      if (opts.all) callback(null, [{ address: '93.184.215.14', family: 4 }]);
      else callback(null, '93.184.215.14', 4);
    };
    const result = await sendWebhook(
      { url: 'https://public.example.test/hook', secret: newWebhookSecret() },
      'msg_public',
      '{}',
      options(resolve),
    );
    expect(asked.every((all) => all === true)).toBe(true);
    // Nothing answers on this closed network: what matters is that it was not refused.
    expect(result.error).not.toMatch(/refused to send/);
    expect(result.retryable).toBe(true);
  });
});
