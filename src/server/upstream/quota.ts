import { z } from 'zod';
const WINDOW_MS = 60 * 60_000;
/** Own send times are kept twice the window: estimating from an older header needs them. */
const KEEP_MS = 2 * WINDOW_MS;
/** When we cannot tell how long to wait for quota, suggest this. */
const UNKNOWN_WAIT_MS = 60_000;
/**
 * The smallest paid tier's hourly limit (Pro). Until an `X-RateLimit-Limit` header says
 * otherwise the governor spends as if the key had only this much, so a cold start with a failing
 * upstream (which sends no headers) still has a ceiling.
 */
export const ASSUMED_LIMIT = 50;

export type Purpose = 'interactive' | 'background';

export type Permit = { ok: true } | { ok: false; retryAfterMs: number; reason: string };
/** A granted request carries its sequence number, to tie the answer's headers to it. */
export type Grant = { ok: true; seq: number } | { ok: false; retryAfterMs: number; reason: string };

/**
 * What the upstream client asks before each request and tells after it: this process's
 * governor, or (several replicas on one PostgreSQL) the shared ledger of replicas/shared-quota.ts.
 */
export interface QuotaLedger {
  /** Grants one request and records it as sent, in one atomic step; or refuses. */
  acquire(purpose: Purpose): Promise<Grant>;
  /** The `X-RateLimit-*` of the answer to the request granted as `seq`. */
  recordHeaders(limit: number | null, remaining: number | null, seq: number): void;
  /** A 429 told us to wait: no request for this key until then. */
  block(retryAfterMs: number): void;
}

export interface QuotaState {
  sent: number[];
  limit: number | null;
  headerRemaining: number | null;
  headerAt: number | null;
  /** Requests sent after the one whose answer carried the header (not counted in it). */
  sentSinceHeader: number;
  blockedUntil: number | null;
  /** Requests ever granted (shared by every replica in a cluster): ties headers to requests. */
  seq?: number;
  /** The `seq` whose answer gave `headerRemaining` (an older answer arriving later is ignored). */
  headerSeq?: number;
}

/** A saved state as read back (the cache file, the replicas' ledger): checked, never trusted. */
export const quotaStateSchema = z.object({
  sent: z.array(z.number()),
  limit: z.number().nullable(),
  headerRemaining: z.number().nullable(),
  headerAt: z.number().nullable(),
  sentSinceHeader: z.number().int().min(0),
  blockedUntil: z.number().nullable(),
  seq: z.number().int().min(0).optional(),
  headerSeq: z.number().int().min(0).optional(),
});

/** Nothing sent, nothing known: a new key, or a saved state that could not be read. */
export function emptyQuotaState(): QuotaState {
  return {
    sent: [],
    limit: null,
    headerRemaining: null,
    headerAt: null,
    sentSinceHeader: 0,
    blockedUntil: null,
  };
}

/**
 * Spends the key's hourly budget (a sliding 60 minutes per key) like money. It believes the
 * upstream's `X-RateLimit-*` headers, corrected for what we sent since and for our own requests
 * that have left the window; and it keeps its own log of requests sent, which it trusts when it is
 * stricter. A reserve is kept for people's cache misses: background refreshes stop above it.
 */
export class QuotaGovernor implements QuotaLedger {
  #state: QuotaState = emptyQuotaState();
  #onChange: () => void = () => {};

  /** `reserve` null: a fifth of the key's hourly limit (10 of Pro's 50). */
  constructor(
    private readonly reserve: number | null,
    private readonly now: () => number,
  ) {}

  /** Called after every change worth persisting (a request sent, a 429's wait). */
  onChange(listener: () => void): void {
    this.#onChange = listener;
  }

  /** The reserve in force: never more than half the key's limit, so background work can run. */
  effectiveReserve(): number {
    const limit = this.effectiveLimit();
    return Math.min(this.reserve ?? Math.ceil(limit / 5), Math.floor(limit / 2));
  }

  /** The limit told by the upstream, or the smallest paid tier's until it has told one. */
  effectiveLimit(): number {
    return this.#state.limit ?? ASSUMED_LIMIT;
  }

  acquire(purpose: Purpose): Promise<Grant> {
    const permit = this.permit(purpose);
    return Promise.resolve(permit.ok ? { ok: true, seq: this.recordSend() } : permit);
  }

  /** Records a request about to be sent; returns its sequence number for `recordHeaders`. */
  recordSend(): number {
    const now = this.now();
    this.#state.sent.push(now);
    this.#state.sentSinceHeader++;
    this.#state.seq = (this.#state.seq ?? 0) + 1;
    this.#prune(now);
    this.#onChange();
    return this.#state.seq;
  }

  /**
   * The `X-RateLimit-*` of the answer to request `seq`. Requests sent after it (still in flight,
   * or answered earlier) are not counted in its `remaining`; by sequence, not by time, so
   * requests sent within the same millisecond are not lost.
   */
  recordHeaders(limit: number | null, remaining: number | null, seq: number): void {
    if (limit !== null) this.#state.limit = limit;
    if (remaining !== null && seq >= (this.#state.headerSeq ?? 0)) {
      this.#state.headerRemaining = remaining;
      this.#state.headerAt = this.now();
      this.#state.headerSeq = seq;
      this.#state.sentSinceHeader = Math.max(0, (this.#state.seq ?? 0) - seq);
    }
  }

  /** A 429 told us to wait: no request for this key until then. */
  block(retryAfterMs: number): void {
    const until = this.now() + retryAfterMs;
    this.#state.blockedUntil = Math.max(this.#state.blockedUntil ?? 0, until);
    this.#onChange();
  }

  blockedUntil(): number | null {
    const until = this.#state.blockedUntil;
    return until !== null && until > this.now() ? until : null;
  }

  limit(): number | null {
    return this.#state.limit;
  }

  usedLast60Min(): number {
    const from = this.now() - WINDOW_MS;
    return this.#state.sent.filter((t) => t > from).length;
  }

  /** Best estimate of requests left in the window (against the assumed limit before a header). */
  remaining(): number {
    const { headerRemaining, headerAt, sent, sentSinceHeader } = this.#state;
    const limit = this.effectiveLimit();
    const now = this.now();
    let estimate = limit - this.usedLast60Min();
    if (headerRemaining !== null && headerAt !== null && now - headerAt < WINDOW_MS) {
      // Our own requests counted in that header which have since left the sliding window.
      const leftWindow = sent.filter(
        (t) => t > headerAt - WINDOW_MS && t <= now - WINDOW_MS,
      ).length;
      estimate = Math.min(estimate, headerRemaining - sentSinceHeader + leftWindow);
    }
    return Math.max(0, Math.min(limit, estimate));
  }

  permit(purpose: Purpose): Permit {
    const blocked = this.blockedUntil();
    if (blocked !== null) {
      return {
        ok: false,
        retryAfterMs: blocked - this.now(),
        reason: 'the Risk API asked us to wait (its hourly limit for this key is reached)',
      };
    }
    const remaining = this.remaining();
    if (purpose === 'interactive' && remaining >= 1) return { ok: true };
    if (purpose === 'background' && remaining > this.effectiveReserve()) return { ok: true };
    return {
      ok: false,
      retryAfterMs: this.#untilOneLeavesWindow(),
      reason:
        purpose === 'background'
          ? "refresh held back: this hour's last requests are kept for people opening pages"
          : "this hour's upstream request budget is spent",
    };
  }

  snapshot(): QuotaState {
    return { ...this.#state, sent: [...this.#state.sent] };
  }

  restore(state: QuotaState): void {
    this.#state = { ...state, sent: [...state.sent].sort((a, b) => a - b) };
    this.#prune(this.now());
  }

  #untilOneLeavesWindow(): number {
    const now = this.now();
    const oldest = this.#state.sent.find((t) => t > now - WINDOW_MS);
    return oldest === undefined ? UNKNOWN_WAIT_MS : Math.max(1000, oldest + WINDOW_MS - now);
  }

  #prune(now: number): void {
    const from = now - KEEP_MS;
    const sent = this.#state.sent;
    let drop = 0;
    while (drop < sent.length && (sent[drop] ?? 0) <= from) drop++;
    if (drop > 0) sent.splice(0, drop);
  }
}
