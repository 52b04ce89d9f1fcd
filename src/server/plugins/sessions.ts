import { randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';

const MINUTE_MS = 60_000;
/** Sessions held at once; the oldest is signed out first when more people sign in. */
const MAX_SESSIONS = 10_000;
/** Addresses whose wrong guesses are remembered. */
const MAX_GUESSERS = 10_000;

/**
 * Where sessions live: this process's memory, or (replicas) PostgreSQL, so that a browser signed
 * in on one replica is signed in on all (replicas/shared-sessions.ts).
 */
export interface SessionStore {
  open(): Promise<string>;
  valid(id: string | undefined): boolean | Promise<boolean>;
  revoke(id: string | undefined): Promise<void>;
}

/** The shape every session id has (32 random bytes, base64url). */
export function wellFormedSessionId(id: string | undefined): id is string {
  return id !== undefined && /^[A-Za-z0-9_-]{43}$/.test(id);
}

export function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Signed-in browsers. A session is a random id held here (not a signed value the browser keeps),
 * so signing out revokes it at once; a restart signs everyone out, which is the safe direction.
 */
export class Sessions implements SessionStore {
  readonly #sessions = new LRUCache<string, number>({ max: MAX_SESSIONS });

  constructor(
    private readonly lifetimeMs: number,
    private readonly now: () => number,
  ) {}

  open(): Promise<string> {
    const id = newSessionId();
    this.#sessions.set(id, this.now() + this.lifetimeMs);
    return Promise.resolve(id);
  }

  valid(id: string | undefined): boolean {
    if (!wellFormedSessionId(id)) return false;
    const expires = this.#sessions.get(id);
    if (expires === undefined) return false;
    if (expires > this.now()) return true;
    this.#sessions.delete(id);
    return false;
  }

  revoke(id: string | undefined): Promise<void> {
    if (id) this.#sessions.delete(id);
    return Promise.resolve();
  }
}

/**
 * Wrong tokens per client address in a sliding minute. Only failures count, so a right token is
 * never refused because of others' mistakes; behind a trusted proxy the address is the one it
 * forwards, so one person's typos do not lock out everyone behind the same proxy.
 */
export class GuessThrottle {
  readonly #failures = new LRUCache<string, number[]>({ max: MAX_GUESSERS });

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number,
  ) {}

  /** Milliseconds until this address may try again, or 0. */
  blockedFor(address: string): number {
    const now = this.now();
    const recent = (this.#failures.get(address) ?? []).filter((t) => t > now - MINUTE_MS);
    if (recent.length < this.perMinute) return 0;
    return Math.max(1000, (recent[recent.length - this.perMinute] ?? now) + MINUTE_MS - now);
  }

  fail(address: string): void {
    const now = this.now();
    const recent = (this.#failures.get(address) ?? []).filter((t) => t > now - MINUTE_MS);
    recent.push(now);
    this.#failures.set(address, recent.slice(-this.perMinute));
  }
}
