import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { sendWebhook, type SendOptions } from '../../src/server/jobs/webhook-sender.js';
import { refusedAddress, refusedUrl } from '../../src/server/services/alerts/address-policy.js';
import { newWebhookSecret } from '../../src/server/services/alerts/watchlists.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

/*
 * One webhook attempt against a real HTTP server on loopback: the signature verified by the
 * Standard Webhooks reference library (not our code), which answers are retried, timeouts, and
 * the SSRF refusal table (without WEBHOOK_ALLOW_PRIVATE).
 */
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver?.close();
});

const loopback: SendOptions = { allowPrivate: true, connectTimeoutMs: 2000, totalTimeoutMs: 2000 };

describe('signing', () => {
  it('is verified by the standardwebhooks library; a changed body is not', async () => {
    const secret = newWebhookSecret();
    const body = JSON.stringify({ type: 'alert.created', data: { iso: 'MLI' } });
    const n = receiver.received.length;
    const result = await sendWebhook({ url: receiver.url, secret }, 'msg_abc', body, loopback);
    expect(result).toMatchObject({ status: 200, error: null });
    const [got] = (await receiver.waitFor(n + 1)).slice(n);
    const headers = got!.headers as Record<string, string>;
    expect(headers['webhook-id']).toBe('msg_abc');
    expect(new Webhook(secret).verify(got!.body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(got!.body.replace('MLI', 'NER'), headers)).toThrow();
    expect(() => new Webhook(newWebhookSecret()).verify(got!.body, headers)).toThrow();
  });
});

describe('answers', () => {
  const cases: Array<[number, boolean]> = [
    [500, true],
    [502, true],
    [503, true],
    [408, true],
    [429, true],
    [400, false],
    [401, false],
    [404, false],
    [410, false],
    [301, false],
  ];
  it.each(cases)('%i is retried: %s', async (status, retryable) => {
    receiver.answers.push({
      status,
      headers: status === 301 ? { location: 'http://169.254.169.254/' } : {},
    });
    const result = await sendWebhook(
      { url: receiver.url, secret: newWebhookSecret() },
      'msg_x',
      '{}',
      loopback,
    );
    expect(result.status).toBe(status);
    expect(result.retryable).toBe(retryable);
    expect(result.error).toMatch(String(status));
  });

  it('reads Retry-After in seconds', async () => {
    receiver.answers.push({ status: 429, headers: { 'retry-after': '120' } });
    const result = await sendWebhook(
      { url: receiver.url, secret: newWebhookSecret() },
      'msg_y',
      '{}',
      loopback,
    );
    expect(result.retryAfterMs).toBe(120_000);
  });

  it('gives up on a receiver that never answers (total timeout), retryably', async () => {
    receiver.answers.push({ status: 0 });
    const result = await sendWebhook(
      { url: receiver.url, secret: newWebhookSecret() },
      'msg_z',
      '{}',
      {
        ...loopback,
        totalTimeoutMs: 300,
      },
    );
    expect(result).toMatchObject({ status: null, retryable: true });
    expect(result.error).toMatch(/no complete answer within 300 ms/);
  });

  it('treats a refused connection as a network error, retryably', async () => {
    const closed = await startWebhookReceiver();
    const url = closed.url;
    await closed.close();
    const result = await sendWebhook({ url, secret: newWebhookSecret() }, 'msg_n', '{}', loopback);
    expect(result).toMatchObject({ status: null, retryable: true });
    expect(result.error).toMatch(/network error: ECONNREFUSED/);
  });
});

describe('SSRF refusal (WEBHOOK_ALLOW_PRIVATE unset)', () => {
  const refused = [
    '127.0.0.1',
    '127.5.5.5',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.254',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd00:ec2::254',
    'fc00::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::a00:1',
  ];
  const allowed = ['8.8.8.8', '1.1.1.1', '172.32.0.1', '192.169.0.1', '2606:4700:4700::1111'];
  it.each(refused)('refuses %s', (address) => {
    expect(refusedAddress(address)).toMatch(/loopback, private or link-local/);
  });
  it.each(allowed)('allows %s', (address) => {
    expect(refusedAddress(address)).toBeNull();
  });

  const urls: Array<[string, RegExp]> = [
    ['http://hooks.example.com/x', /https/],
    ['https://localhost/x', /localhost/],
    ['https://api.localhost/x', /localhost/],
    ['https://127.0.0.1:8443/x', /loopback/],
    ['https://[::1]/x', /loopback/],
    ['https://169.254.169.254/latest/meta-data', /link-local/],
    ['https://[::ffff:169.254.169.254]/', /link-local/],
    ['ftp://hooks.example.com/', /https/],
    ['not a url', /not a valid URL/],
  ];
  it.each(urls)('refuses the URL %s', (url, why) => {
    expect(refusedUrl(url, false)).toMatch(why);
  });
  it('allows a public https URL, and loopback http when the operator allows private addresses', () => {
    expect(refusedUrl('https://hooks.example.com/x', false)).toBeNull();
    expect(refusedUrl('http://127.0.0.1:9/x', true)).toBeNull();
  });

  it('refuses a name that resolves to a private address, before connecting', async () => {
    const resolve = ((
      _host: string,
      _options: unknown,
      callback: (e: null, a: LookupAddress[]) => void,
    ) =>
      callback(null, [
        { address: '93.184.215.14', family: 4 },
        { address: '10.0.0.5', family: 4 },
      ])) as never;
    const n = receiver.received.length;
    const result = await sendWebhook(
      { url: 'https://internal.example.test/hook', secret: newWebhookSecret() },
      'msg_ssrf',
      '{}',
      { allowPrivate: false, connectTimeoutMs: 2000, totalTimeoutMs: 2000, resolve },
    );
    expect(result).toMatchObject({ status: null, retryable: false });
    expect(result.error).toMatch(
      /refused to send: internal\.example\.test resolves to 10\.0\.0\.5/,
    );
    expect(receiver.received.length).toBe(n);
  });

  it('refuses the loopback receiver itself without the operator’s permission', async () => {
    const result = await sendWebhook(
      { url: receiver.url, secret: newWebhookSecret() },
      'msg_lo',
      '{}',
      {
        ...loopback,
        allowPrivate: false,
      },
    );
    expect(result).toMatchObject({ status: null, retryable: false });
    expect(result.error).toMatch(/https/);
  });
});
