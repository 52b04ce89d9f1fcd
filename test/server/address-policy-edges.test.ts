import { describe, expect, it } from 'vitest';
import { refusedAddress } from '../../src/server/services/alerts/address-policy.js';

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
  ])('%s is judged as %s', (address, inner) => {
    expect(refusedAddress(address)).toBe(`${inner} ${PRIVATE}`);
  });

  it.each(['::ffff:8.8.8.8', '::ffff:808:808', '64:ff9b::101:101'])(
    'a mapped public address (%s) is allowed',
    (address) => {
      expect(refusedAddress(address)).toBeNull();
    },
  );

  it.each(['1::ffff:7f00:1', '1::ffff:127.0.0.1', '::ffff:7f00:1:2', '2001:4860::ffff:a00:1'])(
    'a public IPv6 address that merely contains a mapped form (%s) is allowed',
    (address) => {
      expect(refusedAddress(address)).toBeNull();
    },
  );
});

describe('what the refusal says', () => {
  it('names the address and why', () => {
    expect(refusedAddress('fe80::1')).toBe(`fe80::1 ${PRIVATE}`);
    expect(refusedAddress('10.9.8.7')).toBe(`10.9.8.7 ${PRIVATE}`);
    expect(refusedAddress('hooks.example.com')).toBe('hooks.example.com is not an IP address');
  });
});
