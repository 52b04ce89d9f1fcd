import { createHash, randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { SessionLifetimes } from '../config-oidc.js';
import type { Principal, SessionSummary } from '../principal.js';
import { MINUTE_MS } from '../../shared/durations.js';

/** Sessions held at once; the oldest is signed out first when more people sign in. */
const MAX_SESSIONS = 10_000;
/** Addresses whose wrong guesses are remembered. */
const MAX_GUESSERS = 10_000;

/** A signed-in browser's session: who, and when it ends (whichever comes first). */
export interface Session {
  principal: Principal;
  createdAt: number;
  lastSeen: number;
  /** The absolute end: no activity keeps the session past it. */
  expiresAt: number;
  /** Ends this long after the last request seen. */
  idleMs: number;
  /** The provider's ID token (id_token_hint at sign-out); null for a dashboard-token sign-in. */
  idToken: string | null;
  /** The address it was opened from (null for sessions from before it was kept). */
  address: string | null;
  /** The provider's tokens, sealed by the sign-in (null: none, or a dashboard-token sign-in). */
  grant: string | null;
  /** When the role was last asked of the provider (at first: when the session was opened). */
  checkedAt: number;
}

export type { SessionSummary };

/** Requests within this of the last one recorded do not record a new one (idle precision). */
/**
 * Sent with every sign-out: the browser drops the offline copy (the service worker, its caches,
 * web storage) for this origin itself. The page clears them too before it posts, but a worker
 * still in control can write one more answer in between; this header is the last word.
 */
export const CLEAR_SITE_DATA = '"cache", "storage"';

export const TOUCH_EVERY_MS = MINUTE_MS;

export function sessionEnd(session: Session): number {
  return Math.min(session.expiresAt, session.lastSeen + session.idleMs);
}

export function sessionHash(id: string): string {
  return createHash('sha256').update(id).digest('base64url');
}

/** The sessions (by hash) not yet ended at `now`, as an admin's list shows them. */
export function liveSummaries(
  byHash: Iterable<readonly [string, Session]>,
  now: number,
): SessionSummary[] {
  const live: SessionSummary[] = [];
  for (const [id, session] of byHash) {
    if (sessionEnd(session) <= now) continue;
    const { principal, createdAt, lastSeen, expiresAt, address } = session;
    live.push({ id, principal, createdAt, lastSeen, expiresAt, address });
  }
  return live;
}

/**
 * Where sessions live: the store (PGlite or PostgreSQL: they survive restarts, and replicas share
 * them: replicas/shared-sessions.ts), or this process's memory when there is no store.
 */
export interface SessionStore {
  /** Opens a session with a new random id (never one the browser sent) and returns that id. */
  open(
    principal: Principal,
    lifetimes: SessionLifetimes,
    idToken?: string | null,
    address?: string | null,
    grant?: string | null,
  ): Promise<string>;
  /** The live session with this id (its last activity recorded), or null. */
  find(id: string | undefined): Promise<Session | null>;
  revoke(id: string | undefined): Promise<void>;
  /** Sessions not yet at their absolute end, newest first (bounded). */
  list(): Promise<SessionSummary[]>;
  /** An admin signs someone out by the listed id; true when there was such a session. */
  revokeListed(idHash: string): Promise<boolean>;
  /**
   * Takes the due re-check of a session's role: true for one caller only (across replicas), the
   * one whose `seen` is still the session's `checkedAt`, which becomes `now`.
   */
  claimRecheck(id: string, seen: number, now: number): Promise<boolean>;
  /** What the re-check found: who the session acts for now, and the provider's sealed tokens. */
  updateIdentity(id: string, principal: Principal, grant: string | null): Promise<void>;
}

/** The shape every session id has (32 random bytes, base64url). */
export function wellFormedSessionId(id: string | undefined): id is string {
  return id !== undefined && /^[A-Za-z0-9_-]{43}$/.test(id);
}

/**
 * A session opened now: a new random id (never one the browser sent), the hash a store keeps it
 * under, and the session itself.
 */
export function startSession(
  principal: Principal,
  lifetimes: SessionLifetimes,
  now: number,
  idToken: string | null,
  address: string | null,
  grant: string | null = null,
): { id: string; hash: string; session: Session } {
  const id = randomBytes(32).toString('base64url');
  const session: Session = {
    principal,
    createdAt: now,
    lastSeen: now,
    expiresAt: now + lifetimes.absoluteMs,
    idleMs: lifetimes.idleMs,
    idToken,
    address,
    grant,
    checkedAt: now,
  };
  return { id, hash: sessionHash(id), session };
}

/**
 * Signed-in browsers, in memory (no store configured). A session is a random id held here (not
 * a signed value the browser keeps), so signing out revokes it at once; a restart signs everyone
 * out, which is the safe direction.
 */
export class Sessions implements SessionStore {
  readonly #sessions = new LRUCache<string, Session>({ max: MAX_SESSIONS });

  constructor(private readonly now: () => number) {}

  open(
    principal: Principal,
    lifetimes: SessionLifetimes,
    idToken: string | null = null,
    address: string | null = null,
    grant: string | null = null,
  ): Promise<string> {
    const now = this.now();
    const { id, hash, session } = startSession(principal, lifetimes, now, idToken, address, grant);
    this.#sessions.set(hash, session);
    return Promise.resolve(id);
  }

  find(id: string | undefined): Promise<Session | null> {
    if (!wellFormedSessionId(id)) return Promise.resolve(null);
    const hash = sessionHash(id);
    const session = this.#sessions.get(hash);
    if (session === undefined) return Promise.resolve(null);
    const now = this.now();
    if (sessionEnd(session) <= now) {
      this.#sessions.delete(hash);
      return Promise.resolve(null);
    }
    session.lastSeen = now;
    return Promise.resolve(session);
  }

  revoke(id: string | undefined): Promise<void> {
    if (wellFormedSessionId(id)) this.#sessions.delete(sessionHash(id));
    return Promise.resolve();
  }

  list(): Promise<SessionSummary[]> {
    const listed = liveSummaries(this.#sessions.entries(), this.now());
    return Promise.resolve(listed.sort((a, b) => b.createdAt - a.createdAt));
  }

  revokeListed(idHash: string): Promise<boolean> {
    return Promise.resolve(this.#sessions.delete(idHash));
  }

  claimRecheck(id: string, seen: number, now: number): Promise<boolean> {
    const session = this.#sessions.get(sessionHash(id));
    if (session === undefined || session.checkedAt !== seen) return Promise.resolve(false);
    session.checkedAt = now;
    return Promise.resolve(true);
  }

  updateIdentity(id: string, principal: Principal, grant: string | null): Promise<void> {
    const session = this.#sessions.get(sessionHash(id));
    if (session !== undefined) Object.assign(session, { principal, grant });
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
