import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import type { Secret } from '../../secret.js';

/*
 * Keys the sign-in derives from the client secret (HKDF, one per purpose): every replica has the
 * same secret, so a pending sign-in started on one replica is checked on another, and a session's
 * provider tokens sealed by one are opened by the next. The keys never leave this object.
 */
export class OidcKeys {
  readonly #mac: Buffer;
  readonly #seal: Buffer;

  constructor(clientSecret: Secret) {
    const derive = (purpose: string) =>
      Buffer.from(hkdfSync('sha256', clientSecret.reveal(), 'grd-oidc', purpose, 32));
    this.#mac = derive('pending sign-in cookie');
    this.#seal = derive('session provider grant');
  }

  /** `value.mac`: the value with its HMAC-SHA256 (base64url). */
  sign(value: string): string {
    return `${value}.${createHmac('sha256', this.#mac).update(value).digest('base64url')}`;
  }

  /** The value a `sign` result carries, or null when it was altered or is not one. */
  verify(signed: string): string | null {
    const at = signed.lastIndexOf('.');
    if (at <= 0) return null;
    const value = signed.slice(0, at);
    const given = Buffer.from(signed.slice(at + 1), 'base64url');
    const expected = createHmac('sha256', this.#mac).update(value).digest();
    return given.length === expected.length && timingSafeEqual(given, expected) ? value : null;
  }

  /** Text sealed with AES-256-GCM (the store holds only this form of a session's tokens). */
  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#seal, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.');
  }

  /** The sealed text, or null when it was altered, sealed with another secret, or malformed. */
  unseal(sealed: string): string | null {
    const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
    if (iv?.length !== 12 || tag?.length !== 16 || body === undefined) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#seal, iv);
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}
