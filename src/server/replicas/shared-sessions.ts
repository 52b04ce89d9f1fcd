import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { newSessionId, wellFormedSessionId, type SessionStore } from '../plugins/sessions.js';
import type { Database } from '../store/connection.js';
import { deleteSession, insertSession, sessionExpiry } from '../store/sessions.js';

/** Sessions remembered as valid at once, per replica. */
const MAX_KNOWN = 10_000;
/** A valid session is asked of the database again after this (revocations also travel as news). */
const RECHECK_MS = 60_000;

export interface SharedSessionsDeps {
  db: Database;
  lifetimeMs: number;
  now: () => number;
  reportStore: (ok: boolean, error?: unknown) => void;
  /** Tells the other replicas a session was revoked (they forget it at once). */
  announceRevoked: (idHash: string) => void;
}

export function sessionHash(id: string): string {
  return createHash('sha256').update(id).digest('base64url');
}

/**
 * Sign-ins shared by every replica: kept in PostgreSQL by the SHA-256 of their id, and
 * remembered here for a minute once seen valid, so a signed-in page costs no query per request.
 * A sign-out reaches the other replicas as news. While PostgreSQL is down, sessions this replica
 * has seen stay valid here, and a new sign-in is valid on this replica only.
 */
export class SharedSessions implements SessionStore {
  readonly #known = new LRUCache<string, number>({ max: MAX_KNOWN, ttl: RECHECK_MS });

  constructor(private readonly deps: SharedSessionsDeps) {}

  async open(): Promise<string> {
    const id = newSessionId();
    const hash = sessionHash(id);
    const expires = this.deps.now() + this.deps.lifetimeMs;
    this.#known.set(hash, expires, { ttl: 0 });
    try {
      await insertSession(this.deps.db, hash, expires);
      this.#known.set(hash, expires);
      this.deps.reportStore(true);
    } catch (error) {
      this.deps.reportStore(false, error);
    }
    return id;
  }

  async valid(id: string | undefined): Promise<boolean> {
    if (!wellFormedSessionId(id)) return false;
    const hash = sessionHash(id);
    const now = this.deps.now();
    const known = this.#known.get(hash);
    if (known !== undefined && known > now) return true;
    try {
      const expires = await sessionExpiry(this.deps.db, hash);
      this.deps.reportStore(true);
      if (expires === null || expires <= now) return false;
      this.#known.set(hash, expires);
      return true;
    } catch (error) {
      this.deps.reportStore(false, error);
      return known !== undefined && known > now;
    }
  }

  async revoke(id: string | undefined): Promise<void> {
    if (!wellFormedSessionId(id)) return;
    const hash = sessionHash(id);
    this.forget(hash);
    await deleteSession(this.deps.db, hash).catch((error: unknown) =>
      this.deps.reportStore(false, error),
    );
    this.deps.announceRevoked(hash);
  }

  /** Another replica signed this session out. */
  forget(idHash: string): void {
    this.#known.delete(idHash);
  }
}
