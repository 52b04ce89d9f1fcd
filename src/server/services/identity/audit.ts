import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Principal } from '../../principal.js';
import {
  insertAudit,
  pruneAudit,
  queryAudit,
  type AuditFilter,
  type StoredAuditRow,
} from '../../store/audit.js';
import type { Database } from '../../store/connection.js';
import { withoutSecrets } from './audit-redact.js';
import { DAY_MS } from '../../../shared/durations.js';

/** Retention runs at most this often per process (after a write). */
const PRUNE_EVERY_MS = 3_600_000;
/** Rows one prune statement deletes; a pass stops after PRUNE_CHUNKS of them (the rest next time). */
const PRUNE_CHUNK = 1000;
const PRUNE_CHUNKS = 50;

/** What a route knows about its own write, beyond what the audit hook sees (all optional). */
export interface AuditChange {
  /** In words: "watchlist changed", "alert acknowledged"; else the route ("PUT /api/…/:id"). */
  action?: string;
  /** What was changed: "/api/watchlists/12", "session of Ada"; else the request's path. */
  object?: string;
  /** The object before the write (secrets are removed before it is stored). */
  before?: unknown;
  /** The object after it; else the write's JSON answer. */
  after?: unknown;
  /**
   * A read-only trial sent as a write (a dry-run import, a backtest): it changes nothing, so it
   * is not logged as a change (issue 33, point 13).
   */
  trial?: true;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** What this write changed, as its route said with recordAudit; the audit hook stores it. */
    auditChange: AuditChange | null;
  }
}

/**
 * Tells the audit log what this request changed (issue 21). Every write route is recorded by
 * the audit hook whether or not it calls this; a route calls it to name the action in words and
 * give the object's state before and after. Calling it twice merges the two.
 */
export function recordAudit(request: FastifyRequest, change: AuditChange): void {
  request.auditChange = { ...request.auditChange, ...change };
}

/** One entry as the hook or a sign-in hands it over (the time is the log's own clock). */
export interface AuditEvent {
  actor: Principal | null;
  address: string | null;
  action: string;
  object: string | null;
  status: number;
  detail?: string | null;
  before?: unknown;
  after?: unknown;
}

/** Who did it, when nobody is known (a failed sign-in). */
const UNKNOWN = { name: 'Unknown (not signed in)', via: 'none' };

/**
 * The audit log (issue 21): append-only in the store; entries never carry a secret
 * (audit-redact.ts); kept AUDIT_RETENTION_DAYS, pruned in bounded chunks.
 */
export class AuditLog {
  #prunedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly deps: {
      db: Database;
      now: () => number;
      /** AUDIT_RETENTION_DAYS. */
      retentionDays: number;
      log: FastifyBaseLogger;
    },
  ) {}

  /** Appends one entry; a store failure is logged (without the entry) and thrown. */
  async record(event: AuditEvent): Promise<void> {
    const now = this.deps.now();
    try {
      await insertAudit(this.deps.db, {
        at: now,
        actorName: event.actor?.name ?? UNKNOWN.name,
        actorEmail: event.actor?.email ?? null,
        actorSubject: event.actor?.subject ?? null,
        actorVia: event.actor?.via ?? UNKNOWN.via,
        actorRole: event.actor?.role ?? null,
        address: event.address,
        action: event.action.slice(0, 200),
        object: event.object?.slice(0, 500) ?? null,
        status: event.status,
        detail: event.detail?.slice(0, 500) ?? null,
        before: withoutSecrets(event.before),
        after: withoutSecrets(event.after),
      });
    } catch (error) {
      this.deps.log.error({ action: event.action }, 'an audit entry could not be written');
      throw error;
    }
    if (now - this.#prunedAt >= PRUNE_EVERY_MS) {
      this.#prunedAt = now;
      await this.prune().catch((error: unknown) =>
        this.deps.log.warn({ err: error }, 'audit retention could not prune'),
      );
    }
  }

  /** Entries older than the retention window go, at most PRUNE_CHUNKS × PRUNE_CHUNK per pass. */
  async prune(): Promise<number> {
    const cutoff = this.deps.now() - this.deps.retentionDays * DAY_MS;
    let deleted = 0;
    for (let i = 0; i < PRUNE_CHUNKS; i++) {
      const gone = await pruneAudit(this.deps.db, cutoff, PRUNE_CHUNK);
      deleted += gone;
      if (gone < PRUNE_CHUNK) break;
    }
    return deleted;
  }

  query(filter: AuditFilter, limit: number): Promise<StoredAuditRow[]> {
    return queryAudit(this.deps.db, filter, limit);
  }
}

/** The request's client address and who it acts for, as the log names them. */
export function auditActor(request: FastifyRequest): { address: string; actor: Principal | null } {
  return { address: request.ip, actor: request.principal };
}
