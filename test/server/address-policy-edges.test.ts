import { describe, expect, it } from 'vitest';

// Imported in each test, not at the top: a block list that cannot be built must fail these tests
// (a file whose import throws, or whose hook fails, counts as no failed test for Stryker).
async function refusedAddress(address: string): Promise<string | null> {
  const policy = await import('../../src/server/services/alerts/address-policy.js');
  return policy.refusedAddress(address);
}

/*
 * The IPv4 address an IPv6 form embeds is judged as that IPv4 address, however it is written,
 * and only when the form really is a mapped or NAT64 address. Each case here was a one-line
 * change of address-policy.ts that no test caught.
 */
const PRIVATE = 'is a loopback, private or link-local address';

describe('embedded IPv4 addresses', () => {
  it.each([
    ['::ffff:10.0.0.1', '10.0.0.1'],
    ['::FFFF:10.0.0.1', '10.0.0.1'],
    ['64:ff9b::10.0.0.1', '10.0.0.1'],
    ['::ffff:c0a8:101', '192.168.1.1'],
    ['::FFFF:C0A8:0101', '192.168.1.1'],
    ['64:ff9b::ac10:1', '172.16.0.1'],
    ['::ffff:172.16.10.100', '172.16.10.100'],
  ])('%s is judged as %s', async (address, inner) => {
    expect(await refusedAddress(address)).toBe(`${inner} ${PRIVATE}`);
  });

  it.each(['::ffff:8.8.8.8', '::ffff:808:808', '64:ff9b::101:101'])(
    'a mapped public address (%s) is allowed',
    async (address) => {
      expect(await refusedAddress(address)).toBeNull();
    },
  );

  it.each(['1::ffff:7f00:1', '1::ffff:127.0.0.1', '::ffff:7f00:1:2', '2001:4860::ffff:a00:1'])(
    'a public IPv6 address that merely contains a mapped form (%s) is allowed',
    async (address) => {
      expect(await refusedAddress(address)).toBeNull();
    },
  );
});

describe('the block list', () => {
  it.each([
    '0.1.2.3',
    '10.200.0.1',
    '100.127.255.254',
    '127.255.0.1',
    '169.254.0.1',
    '172.20.1.1',
    '192.0.0.9',
    '192.0.2.77',
    '192.88.99.1',
    '192.168.200.1',
    '198.19.255.1',
    '198.51.100.7',
    '203.0.113.9',
    '239.1.1.1',
    '250.0.0.1',
    '::',
    '::1',
    '100::1',
    '2001:db8::1',
    'fdff::1',
    'febf::1',
    'fec0::1',
    'ff02::1',
  ])('refuses %s', async (address) => {
    expect(await refusedAddress(address)).toBe(`${address} ${PRIVATE}`);
  });
});

describe('what the refusal says', () => {
  it('names the address and why', async () => {
    expect(await refusedAddress('fe80::1')).toBe(`fe80::1 ${PRIVATE}`);
    expect(await refusedAddress('10.9.8.7')).toBe(`10.9.8.7 ${PRIVATE}`);
    expect(await refusedAddress('hooks.example.com')).toBe(
      'hooks.example.com is not an IP address',
    );
  });
});
