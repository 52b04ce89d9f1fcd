import { BlockList, isIP } from 'node:net';

/*
 * Webhook URLs are user input: without a check, "send test" would let anyone who can edit a
 * watchlist make the BFF call its own loopback, the private network or a cloud metadata service.
 * Addresses are checked after DNS resolution and again for the address actually connected to
 * (see webhook-sender.ts), so a name that changes its answer between the two (DNS rebinding)
 * gains nothing.
 */

function blockList(): BlockList {
  const list = new BlockList();
  const v4: Array<[string, number]> = [
    ['0.0.0.0', 8], // "this network"
    ['10.0.0.0', 8], // private
    ['100.64.0.0', 10], // carrier-grade NAT
    ['127.0.0.0', 8], // loopback
    ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
    ['172.16.0.0', 12], // private
    ['192.0.0.0', 24], // IETF protocol assignments
    ['192.0.2.0', 24], // documentation
    ['192.88.99.0', 24], // 6to4 relay
    ['192.168.0.0', 16], // private
    ['198.18.0.0', 15], // benchmarking
    ['198.51.100.0', 24], // documentation
    ['203.0.113.0', 24], // documentation
    ['224.0.0.0', 4], // multicast
    ['240.0.0.0', 4], // reserved, broadcast
  ];
  for (const [net, prefix] of v4) list.addSubnet(net, prefix, 'ipv4');
  const v6: Array<[string, number]> = [
    ['::', 128], // unspecified
    ['::1', 128], // loopback
    ['100::', 64], // discard
    ['2001:db8::', 32], // documentation
    ['fc00::', 7], // unique local (AWS metadata fd00:ec2::254 too)
    ['fe80::', 10], // link-local
    ['fec0::', 10], // site-local (deprecated)
    ['ff00::', 8], // multicast
  ];
  for (const [net, prefix] of v6) list.addSubnet(net, prefix, 'ipv6');
  return list;
}

// Built once: immutable after construction (no mutable module state).
const BLOCKED = blockList();

/** The IPv4 address an IPv6 form embeds (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96), if any. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted?.[1]) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex?.[1] && hex[2]) {
    const hi = parseInt(hex[1], 16);
    const lo = parseInt(hex[2], 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return null;
}

/** Why an address may not be called, or null when it is a public address. */
export function refusedAddress(address: string): string | null {
  const family = isIP(address);
  if (family === 0) return `${address} is not an IP address`;
  if (family === 6) {
    const inner = embeddedIpv4(address);
    if (inner !== null) return refusedAddress(inner);
    if (BLOCKED.check(address, 'ipv6'))
      return `${address} is a loopback, private or link-local address`;
    return null;
  }
  if (BLOCKED.check(address, 'ipv4'))
    return `${address} is a loopback, private or link-local address`;
  return null;
}

/** Why the URL may not be called at all (before any DNS), or null. */
export function refusedUrl(raw: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'webhook_url is not a valid URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return 'webhook_url must be an https:// URL';
  }
  if (url.protocol === 'http:' && !allowPrivate) {
    return 'webhook_url must be an https:// URL (plain http only when the operator sets WEBHOOK_ALLOW_PRIVATE=1)';
  }
  if (url.username || url.password) return 'webhook_url must not contain a user name or password';
  if (allowPrivate) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) {
    return 'webhook_url points at this machine (localhost), which is not allowed';
  }
  if (isIP(host) !== 0) {
    const why = refusedAddress(host);
    if (why) return `webhook_url is not allowed: ${why}`;
  }
  return null;
}
