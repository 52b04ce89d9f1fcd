import { LRUCache } from 'lru-cache';
import type { SessionLifetimes } from '../config-oidc.js';
import {
  liveSummaries,
  sessionEnd,
  sessionHash,
  startSession,
  TOUCH_EVERY_MS,
  wellFormedSessionId,
  type Session,
  type SessionStore,
  type SessionSummary,
} from '../plugins/sessions.js';
import { isRole, type Principal } from '../principal.js';
import type { Database } from '../store/connection.js';
import {
  claimRoleCheck,
  deleteSession,
  findSession,
  insertSession,
  listSessions,
  pruneSessions,
  touchSession,
  updateSessionIdentity,
  type SessionRow,
} from '../store/sessions.js';

export { sessionHash } from '../plugins/sessions.js';

/** Sessions remembered as valid at once, per replica. */
const MAX_KNOWN = 10_000;
/** A valid session is asked of the database again after this (revocations also travel as news). */
const RECHECK_MS = 60_000;
/** Ended sessions are deleted at most this often (by whichever process opens a session). */
const PRUNE_EVERY_MS = 3_600_000;

export interface SharedSessionsDeps {
  db: Database;
  now: () => number;
  reportStore: (ok: boolean, error?: unknown) => void;
  /** Tells the other replicas a session was revoked (they forget it at once). */
  announceRevoked: (idHash: string) => void;
}

/** Rows from before issue 21 (no principal) were opened with the dashboard token: admins. */
const TOKEN_SIGN_IN: Principal = {
  name: 'Dashboard token',
  email: null,
  subject: null,
  role: 'admin',
  via: 'dashboard-token',
};

function principalOf(stored: Record<string, unknown> | null): Principal {
  if (stored === null) return TOKEN_SIGN_IN;
  const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
  return {
    name: text(stored.name) ?? 'Unknown',
    email: text(stored.email),
    subject: text(stored.subject),
    // A row that names no known role grants the least.
    role: isRole(stored.role) ? stored.role : 'viewer',
    via: stored.via === 'oidc' ? 'oidc' : 'dashboard-token',
  };
}

function toSession(row: SessionRow): Session {
  const createdAt = row.createdAt ?? row.expiresAt;
  return {
    principal: principalOf(row.principal),
    createdAt,
    lastSeen: row.lastSeen ?? createdAt,
    expiresAt: row.expiresAt,
    idleMs: row.idleMs ?? row.expiresAt,
    idToken: row.idToken,
    address: row.address,
    grant: row.providerGrant,
    checkedAt: row.roleCheckedAt ?? createdAt,
  };
}

/**
 * Sign-ins kept in the store by the SHA-256 of their id (the table's contents cannot be replayed
 * as cookies), so they survive restarts and every replica shares them; remembered here for a
 * minute once seen valid, so a signed-in page costs no query per request. A sign-out reaches the
 * other replicas as news. While the store is down, sessions this process has seen stay valid
 * here, and a new sign-in is valid on this process only.
 */
export class SharedSessions implements SessionStore {
  readonly #known = new LRUCache<string, Session>({ max: MAX_KNOWN, ttl: RECHECK_MS });
  #prunedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly deps: SharedSessionsDeps) {}

  async open(
    principal: Principal,
    lifetimes: SessionLifetimes,
    idToken: string | null = null,
    address: string | null = null,
    grant: string | null = null,
  ): Promise<string> {
    const now = this.deps.now();
    const { id, hash, session } = startSession(principal, lifetimes, now, idToken, address, grant);
    this.#known.set(hash, session, { ttl: 0 });
    try {
      await insertSession(this.deps.db, {
        idHash: hash,
        expiresAt: session.expiresAt,
        principal: { ...principal },
        createdAt: now,
        lastSeen: now,
        idleMs: session.idleMs,
        idToken,
        address,
        providerGrant: grant,
        roleCheckedAt: now,
      });
      this.#known.set(hash, session);
      if (now - this.#prunedAt >= PRUNE_EVERY_MS) {
        this.#prunedAt = now;
        await pruneSessions(this.deps.db, now);
      }
      this.deps.reportStore(true);
    } catch (error) {
      this.deps.reportStore(false, error);
    }
    return id;
  }

  async find(id: string | undefined): Promise<Session | null> {
    if (!wellFormedSessionId(id)) return null;
    const hash = sessionHash(id);
    const now = this.deps.now();
    let session = this.#known.get(hash);
    if (session === undefined) {
      try {
        const row = await findSession(this.deps.db, hash);
        this.deps.reportStore(true);
        if (row === null) return null;
        session = toSession(row);
      } catch (error) {
        this.deps.reportStore(false, error);
        return null;
      }
    }
    if (sessionEnd(session) <= now) {
      this.#known.delete(hash);
      return null;
    }
    if (now - session.lastSeen >= TOUCH_EVERY_MS) {
      session.lastSeen = now;
      await touchSession(this.deps.db, hash, now).catch((error: unknown) =>
        this.deps.reportStore(false, error),
      );
    }
    this.#known.set(hash, session, { noUpdateTTL: this.#known.has(hash) });
    return session;
  }

  async revoke(id: string | undefined): Promise<void> {
    if (!wellFormedSessionId(id)) return;
    await this.revokeListed(sessionHash(id));
  }

  async list(): Promise<SessionSummary[]> {
    const now = this.deps.now();
    const rows = await listSessions(this.deps.db, now);
    return liveSummaries(
      rows.map((row) => [row.idHash, toSession(row)] as const),
      now,
    );
  }

  async revokeListed(idHash: string): Promise<boolean> {
    this.forget(idHash);
    let deleted = false;
    try {
      deleted = await deleteSession(this.deps.db, idHash);
    } catch (error) {
      this.deps.reportStore(false, error);
    }
    this.deps.announceRevoked(idHash);
    return deleted;
  }

  async claimRecheck(id: string, seen: number, now: number): Promise<boolean> {
    const hash = sessionHash(id);
    try {
      const claimed = await claimRoleCheck(this.deps.db, hash, seen, now);
      this.deps.reportStore(true);
      const known = this.#known.get(hash);
      // Won here: remembered as checked now. Lost: another replica has it; ask the row again.
      if (claimed && known !== undefined) known.checkedAt = now;
      if (!claimed) this.#known.delete(hash);
      return claimed;
    } catch (error) {
      this.deps.reportStore(false, error);
      return false;
    }
  }

  async updateIdentity(id: string, principal: Principal, grant: string | null): Promise<void> {
    const hash = sessionHash(id);
    const known = this.#known.get(hash);
    if (known !== undefined) Object.assign(known, { principal, grant });
    try {
      await updateSessionIdentity(this.deps.db, hash, { ...principal }, grant);
      this.deps.reportStore(true);
    } catch (error) {
      this.deps.reportStore(false, error);
    }
  }

  /** Another replica signed this session out. */
  forget(idHash: string): void {
    this.#known.delete(idHash);
  }

  /** News may have been missed (the channel reconnected): every session is asked for again. */
  forgetAll(): void {
    this.#known.clear();
  }
}
