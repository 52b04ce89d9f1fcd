import { describe, expect, it } from 'vitest';

// Imported in each test (as in address-policy-edges.test.ts): a block list that cannot be built
// must fail these tests, not the file's import.
async function policy() {
  return import('../../src/server/services/alerts/address-policy.js');
}

/*
 * Every range the webhook address policy blocks, at both of its ends, and the addresses just
 * outside each end allowed: a prefix length one off (a /8 read as /9 or /7) or a range dropped
 * from the list fails here. The ranges are those of RFC 6890's special-purpose registries that
 * a receiver on the internet is never at.
 */
const PRIVATE = 'is a loopback, private or link-local address';

/** [range, first address, last address, the address before it, the address after it]. */
const V4: Array<[string, string, string, string | null, string | null]> = [
  ['0.0.0.0/8', '0.0.0.0', '0.255.255.255', null, '1.0.0.0'],
  ['10.0.0.0/8', '10.0.0.0', '10.255.255.255', '9.255.255.255', '11.0.0.0'],
  ['100.64.0.0/10', '100.64.0.0', '100.127.255.255', '100.63.255.255', '100.128.0.0'],
  ['127.0.0.0/8', '127.0.0.0', '127.255.255.255', '126.255.255.255', '128.0.0.0'],
  ['169.254.0.0/16', '169.254.0.0', '169.254.255.255', '169.253.255.255', '169.255.0.0'],
  ['172.16.0.0/12', '172.16.0.0', '172.31.255.255', '172.15.255.255', '172.32.0.0'],
  ['192.0.0.0/24', '192.0.0.0', '192.0.0.255', '191.255.255.255', '192.0.1.0'],
  ['192.0.2.0/24', '192.0.2.0', '192.0.2.255', '192.0.1.255', '192.0.3.0'],
  ['192.88.99.0/24', '192.88.99.0', '192.88.99.255', '192.88.98.255', '192.88.100.0'],
  ['192.168.0.0/16', '192.168.0.0', '192.168.255.255', '192.167.255.255', '192.169.0.0'],
  ['198.18.0.0/15', '198.18.0.0', '198.19.255.255', '198.17.255.255', '198.20.0.0'],
  ['198.51.100.0/24', '198.51.100.0', '198.51.100.255', '198.51.99.255', '198.51.101.0'],
  ['203.0.113.0/24', '203.0.113.0', '203.0.113.255', '203.0.112.255', '203.0.114.0'],
  ['224.0.0.0/4', '224.0.0.0', '239.255.255.255', '223.255.255.255', null],
  ['240.0.0.0/4', '240.0.0.0', '255.255.255.255', null, null],
];

const V6: Array<[string, string, string, string | null, string | null]> = [
  ['::/128', '::', '::', null, null],
  ['::1/128', '::1', '::1', null, null],
  [
    '100::/64',
    '100::',
    '100::ffff:ffff:ffff:ffff',
    'ff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
    '100:0:0:1::',
  ],
  [
    '2001:db8::/32',
    '2001:db8::',
    '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff',
    '2001:db7:ffff:ffff:ffff:ffff:ffff:ffff',
    '2001:db9::',
  ],
  [
    'fc00::/7',
    'fc00::',
    'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
    'fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
    'fe00::',
  ],
  [
    'fe80::/10',
    'fe80::',
    'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
    'fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
    null,
  ],
  ['fec0::/10', 'fec0::', 'feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', null, 'ff00::'],
  [
    'ff00::/8',
    'ff00::',
    'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
    'feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
    null,
  ],
];

describe('every blocked IPv4 range', () => {
  it.each(V4)(
    '%s: its first and last address are refused, its neighbours allowed',
    async (_range, first, last, before, after) => {
      const { refusedAddress } = await policy();
      expect(refusedAddress(first)).toBe(`${first} ${PRIVATE}`);
      expect(refusedAddress(last)).toBe(`${last} ${PRIVATE}`);
      // The neighbours may be blocked by the next range (192.0.1.255 is not, 192.0.2.0 is).
      const blocked = new Set(V4.flatMap(([, f, l]) => [f, l]));
      if (before && !blocked.has(before)) expect(refusedAddress(before)).toBeNull();
      if (after && !blocked.has(after)) expect(refusedAddress(after)).toBeNull();
    },
  );

  it.each(V4)(
    '%s: refused as an IPv4-mapped IPv6 address, dotted and in hex',
    async (_range, first, last) => {
      const { refusedAddress } = await policy();
      for (const address of [first, last]) {
        const [a, b, c, d] = address.split('.').map(Number) as [number, number, number, number];
        const hex = `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
        expect(refusedAddress(`::ffff:${address}`)).toBe(`${address} ${PRIVATE}`);
        expect(refusedAddress(`::ffff:${hex}`)).toBe(`${address} ${PRIVATE}`);
        expect(refusedAddress(`64:ff9b::${address}`)).toBe(`${address} ${PRIVATE}`);
      }
    },
  );

  it('allows public addresses between the ranges, plain and mapped', async () => {
    const { refusedAddress } = await policy();
    for (const address of [
      '1.1.1.1',
      '8.8.8.8',
      '100.63.0.1',
      '172.32.0.1',
      '198.20.1.1',
      '223.1.2.3',
    ]) {
      expect(refusedAddress(address)).toBeNull();
      expect(refusedAddress(`::ffff:${address}`)).toBeNull();
    }
  });
});

describe('every blocked IPv6 range', () => {
  it.each(V6)(
    '%s: its first and last address are refused, its neighbours allowed',
    async (_range, first, last, before, after) => {
      const { refusedAddress } = await policy();
      expect(refusedAddress(first)).toBe(`${first} ${PRIVATE}`);
      expect(refusedAddress(last)).toBe(`${last} ${PRIVATE}`);
      const blocked = new Set(V6.flatMap(([, f, l]) => [f, l]));
      if (before && !blocked.has(before)) expect(refusedAddress(before)).toBeNull();
      if (after && !blocked.has(after)) expect(refusedAddress(after)).toBeNull();
    },
  );

  it('refuses the cloud metadata addresses (AWS IPv4 and IPv6)', async () => {
    const { refusedAddress } = await policy();
    expect(refusedAddress('169.254.169.254')).toBe(`169.254.169.254 ${PRIVATE}`);
    expect(refusedAddress('fd00:ec2::254')).toBe(`fd00:ec2::254 ${PRIVATE}`);
  });

  it('allows global unicast IPv6', async () => {
    const { refusedAddress } = await policy();
    for (const address of ['2606:4700:4700::1111', '2001:4860:4860::8888', '2a00:1450::1']) {
      expect(refusedAddress(address)).toBeNull();
    }
  });
});

describe('a URL naming an address', () => {
  it.each([
    ['https://10.0.0.1/hook', '10.0.0.1'],
    ['https://[::1]/hook', '::1'],
    ['https://[::ffff:127.0.0.1]/hook', '127.0.0.1'],
    ['https://[fe80::1]/hook', 'fe80::1'],
    ['https://0x7f000001/hook', '127.0.0.1'],
    ['https://2130706433/hook', '127.0.0.1'],
    ['https://0177.0.0.1/hook', '127.0.0.1'],
  ])('%s is refused before any DNS, naming %s', async (url, address) => {
    const { refusedUrl } = await policy();
    expect(refusedUrl(url, false)).toBe(`webhook_url is not allowed: ${address} ${PRIVATE}`);
    // WEBHOOK_ALLOW_PRIVATE lets the same URL through.
    expect(refusedUrl(url, true)).toBeNull();
  });

  it.each(['https://localhost/x', 'https://LOCALHOST:8443/x', 'https://api.localhost/x'])(
    '%s is refused as this machine',
    async (url) => {
      const { refusedUrl } = await policy();
      expect(refusedUrl(url, false)).toBe(
        'webhook_url points at this machine (localhost), which is not allowed',
      );
    },
  );

  it('allows a name ending in "localhost" that is not under it, and a public address', async () => {
    const { refusedUrl } = await policy();
    expect(refusedUrl('https://notlocalhost.example/x', false)).toBeNull();
    expect(refusedUrl('https://mylocalhost/x', false)).toBeNull();
    expect(refusedUrl('https://8.8.8.8/x', false)).toBeNull();
    expect(refusedUrl('https://[2606:4700:4700::1111]/x', false)).toBeNull();
  });

  it('says what is wrong with a URL that is not one, not http(s), plain http or carries credentials', async () => {
    const { refusedUrl } = await policy();
    expect(refusedUrl('not a url', false)).toBe('webhook_url is not a valid URL');
    expect(refusedUrl('ftp://hooks.example.com/x', false)).toBe(
      'webhook_url must be an https:// URL',
    );
    expect(refusedUrl('ftp://hooks.example.com/x', true)).toBe(
      'webhook_url must be an https:// URL',
    );
    expect(refusedUrl('http://hooks.example.com/x', false)).toBe(
      'webhook_url must be an https:// URL (plain http only when the operator sets WEBHOOK_ALLOW_PRIVATE=1)',
    );
    expect(refusedUrl('http://hooks.example.com/x', true)).toBeNull();
    for (const url of ['https://user@hooks.example.com/x', 'https://:pw@hooks.example.com/x']) {
      expect(refusedUrl(url, false)).toBe('webhook_url must not contain a user name or password');
      expect(refusedUrl(url, true)).toBe('webhook_url must not contain a user name or password');
    }
  });
});
