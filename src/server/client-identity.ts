import { BlockList, isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';

/**
 * Who a request comes from. The SSO proxy's user header and `X-Forwarded-For` are believed only
 * on connections from TRUSTED_PROXY_ADDRESSES: anyone else who reaches the port could otherwise
 * pick any identity (and a fresh miss allowance) per request.
 */
export class ClientIdentity {
  readonly #proxies = new BlockList();

  constructor(
    private readonly proxyHeader: string | null,
    proxyAddresses: readonly string[],
  ) {
    for (const entry of proxyAddresses) {
      const [address = '', bits] = entry.split('/');
      const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
      if (bits === undefined) this.#proxies.addAddress(address, family);
      else this.#proxies.addSubnet(address, Number(bits), family);
    }
  }

  /** From the access settings: the proxy's user header and the addresses it connects from. */
  static of(access: {
    trustedProxyAuthHeader: string | null;
    trustedProxyAddresses?: readonly string[];
  }): ClientIdentity {
    return new ClientIdentity(access.trustedProxyAuthHeader, access.trustedProxyAddresses ?? []);
  }

  /** For Fastify's `trustProxy`: whether a hop's address is one of our proxies. */
  readonly isProxy = (address: string): boolean => {
    const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
    const family = isIP(plain);
    if (family === 0) return false;
    return this.#proxies.check(plain, family === 6 ? 'ipv6' : 'ipv4');
  };

  /** The user the proxy vouches for, or null (no header, or not from a trusted proxy). */
  vouchedUser(request: FastifyRequest): string | null {
    if (this.proxyHeader === null) return null;
    const value = request.headers[this.proxyHeader];
    if (typeof value !== 'string' || value.trim() === '') return null;
    return this.isProxy(request.socket.remoteAddress ?? '') ? value.trim() : null;
  }

  /** The key the per-client limits count under: the vouched user, else the client address. */
  clientKey(request: FastifyRequest): string {
    const user = this.vouchedUser(request);
    return user !== null ? `user:${user}` : `ip:${request.ip}`;
  }
}
