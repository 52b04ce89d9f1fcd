import { LRUCache } from 'lru-cache';
import { MINUTE_MS } from '../shared/durations.js';
import { ApiProblem } from './refusals.js';

/** Clients remembered at once; an address churned out starts with a full budget again. */
const MAX_CLIENTS = 10_000;
/** One unit of a client's budget per started 64 KB of answer (a whole 90-day series: 3). */
export const COST_UNIT_CHARS = 64 * 1024;
/** What a refused request is told to wait when a queue is full: an answer takes milliseconds. */
const BUSY_RETRY_MS = 1000;

/** A store question refused before it ran: 429 (this client's share) or 503 (the store is busy). */
export class StoreQuestionLimitError extends ApiProblem {
  override name = 'StoreQuestionLimitError';
  declare readonly status: 429 | 503;
  declare readonly retryAfterMs: number;
  constructor(status: 429 | 503, retryAfterMs: number, message: string) {
    super(status, message, retryAfterMs);
  }
}

/**
 * "A client asking the store too much", one family of limits. STORE_QUESTIONS_PER_MINUTE sets
 * `perMinute` and derives `queriesPerMinute` (half); the rest are fixed defaults (config.ts),
 * still set by the deprecated settings named beside each for this release.
 */
export interface StoreQuestionLimits {
  /** Units one client may spend a minute, and its burst (HISTORY_COST_PER_MINUTE). */
  perMinute: number;
  /** One client's questions answered at once (HISTORY_QUESTIONS_PER_CLIENT). */
  perClientInFlight: number;
  /** One client's questions waiting; one more is a 429 (HISTORY_QUEUE_PER_CLIENT). */
  perClientQueue: number;
  /** Questions answered at once, process-wide (HISTORY_QUESTIONS_IN_FLIGHT). */
  inFlight: number;
  /** Store queries one client may cause a minute (STORE_QUERIES_PER_MINUTE). */
  queriesPerMinute: number;
  /** Store queries running at once, process-wide (STORE_QUERIES_IN_FLIGHT). */
  queriesInFlight: number;
  /** Store queries waiting for a slot; one more is a 503 (STORE_QUERY_QUEUE). */
  queryQueue: number;
}

/** A question let through: call `done` with the answer's length once it is built (once). */
export interface Admission {
  done(answerChars: number): void;
}

/** Lets one store query run; call the returned function when it has finished (idempotent). */
export type StoreQueryGuard = () => Promise<() => void>;

interface ClientState {
  /** Units left; below zero after an answer bigger than what was left (paid back over time). */
  tokens: number;
  refilledAt: number;
  running: number;
  waiting: (() => void)[];
  /** When this client's recent store queries started (the last minute's). */
  queries: number[];
}

/**
 * Every history, changes and event-archive question (and the heavy routes of issue 29: the
 * chain's verification, backtests, imports) passes `admit` once: each client has a budget of
 * cost (a token bucket charged by the answer's size, so a flood of whole series runs out sooner
 * than a person's browsing) and a bound on its questions answered and waiting; process-wide, at
 * most `inFlight` answers are built at once and waiting clients take turns (round robin), so one
 * client's many connections cannot crowd out another's. A question that what the BFF holds does
 * not answer then passes `guardFor` once per store query: a rate per client, and at most
 * `queriesInFlight` queries at once with a bounded wait queue. The embedded store runs each
 * query on the main thread, so waiters are always woken on a later turn of the event loop:
 * sockets (cached answers) are read between two answers and between two queries. Refusals are
 * decided before any work; cached answers of other routes never pass here.
 */
export class StoreQuestionLimiter {
  readonly #clients = new LRUCache<string, ClientState>({ max: MAX_CLIENTS });
  /** Clients with a question waiting, in the order they take their turns. */
  readonly #turns: ClientState[] = [];
  /** Store queries waiting for a slot, first come first served. */
  readonly #queryWaiting: (() => void)[] = [];
  #running = 0;
  #queriesRunning = 0;
  #queriesPeak = 0;
  #turnScheduled = false;
  #queryHandOffScheduled = false;

  constructor(
    private readonly limits: StoreQuestionLimits,
    private readonly now: () => number,
  ) {}

  /**
   * A new limiter with these limits and its own counts, for a part that counts other clients
   * (feed tokens): the limits are read from the settings in one place (issue 35).
   */
  sibling(): StoreQuestionLimiter {
    return new StoreQuestionLimiter(this.limits, this.now);
  }

  /** Answers being built now, process-wide (for tests). */
  get running(): number {
    return this.#running;
  }

  /** Questions waiting for their turn, all clients together. */
  get waiting(): number {
    return this.#turns.reduce((sum, client) => sum + client.waiting.length, 0);
  }

  /** Store queries running now, the most that ever ran at once, and those waiting. */
  get queriesRunning(): number {
    return this.#queriesRunning;
  }
  get queriesPeak(): number {
    return this.#queriesPeak;
  }
  get queriesWaiting(): number {
    return this.#queryWaiting.length;
  }

  /**
   * Lets one question of `client` be answered: 429 at once when its budget is spent or its queue
   * is full, else waits for its turn. One unit is reserved now, the rest charged by `done`.
   * `what` names the kind of question in a refusal.
   */
  async admit(client: string, what = 'history or event-archive'): Promise<Admission> {
    const state = this.#state(client);
    const { perMinute, perClientInFlight, perClientQueue } = this.limits;
    if (state.tokens < 1) {
      const waitMs = Math.max(1000, Math.ceil(((1 - state.tokens) * MINUTE_MS) / perMinute));
      throw new StoreQuestionLimitError(
        429,
        waitMs,
        `Too many ${what} answers for this client: its budget of ${perMinute} units a minute (one unit per 64 KB answered) is used up; ask again in ${Math.ceil(waitMs / 1000)} s (cached data stays available)`,
      );
    }
    if (state.running + state.waiting.length >= perClientInFlight + perClientQueue) {
      throw new StoreQuestionLimitError(
        429,
        BUSY_RETRY_MS,
        `Too many ${what} questions at once from this client (at most ${perClientInFlight} answered and ${perClientQueue} waiting); ask again in 1 s, after an answer arrives`,
      );
    }
    state.tokens -= 1;
    // Every answer starts on a later turn of the event loop, even with a slot free: an answer
    // held in memory is built without awaiting anything, so one started here would free its
    // slot in time for the next socket's, and the whole flood would be answered in one turn.
    await new Promise<void>((resolve) => {
      state.waiting.push(resolve);
      if (state.waiting.length === 1) this.#turns.push(state);
      this.#nextTurn();
    });
    return this.#admission(state);
  }

  /** The guard one request's store queries go through, counted under `client`. */
  guardFor(client: string): StoreQueryGuard {
    return () => this.enterQuery(client);
  }

  /**
   * Counts one store query for `client` (429 when its minute is used up), then waits for a slot
   * (503 when the queue is full, and the count is given back). Resolves to the slot's release.
   */
  async enterQuery(client: string): Promise<() => void> {
    const refund = this.#countQuery(client);
    if (this.#queriesRunning < this.limits.queriesInFlight && this.#queryWaiting.length === 0) {
      this.#reserveQuery();
      return this.#queryRelease();
    }
    // At most `queryQueue` wait: beyond it the answer is a quick 503, not an ever longer wait.
    if (this.#queryWaiting.length >= this.limits.queryQueue) {
      refund();
      throw new StoreQuestionLimitError(
        503,
        BUSY_RETRY_MS,
        'The history store is busy answering other questions; try again in a moment (cached data stays available)',
      );
    }
    // #queryHandOff reserves the slot before it wakes this waiter.
    await new Promise<void>((resolve) => this.#queryWaiting.push(resolve));
    return this.#queryRelease();
  }

  #state(client: string): ClientState {
    const now = this.now();
    const { perMinute } = this.limits;
    let state = this.#clients.get(client);
    if (!state) {
      state = { tokens: perMinute, refilledAt: now, running: 0, waiting: [], queries: [] };
      this.#clients.set(client, state);
    }
    const refill = ((now - state.refilledAt) * perMinute) / MINUTE_MS;
    state.tokens = Math.min(perMinute, state.tokens + Math.max(0, refill));
    state.refilledAt = now;
    return state;
  }

  #admission(state: ClientState): Admission {
    let finished = false;
    return {
      done: (answerChars) => {
        if (finished) return;
        finished = true;
        // The unit reserved at admission is part of the cost.
        state.tokens -= Math.max(1, Math.ceil(answerChars / COST_UNIT_CHARS)) - 1;
        state.running -= 1;
        this.#running -= 1;
        this.#nextTurn();
      },
    };
  }

  /**
   * Wakes waiting questions on the next turn of the event loop, never in this one. Clients take
   * turns: the one woken goes to the back of the line.
   */
  #nextTurn(): void {
    if (this.#turnScheduled || this.#turns.length === 0) return;
    this.#turnScheduled = true;
    setImmediate(() => {
      this.#turnScheduled = false;
      let looked = 0;
      while (this.#running < this.limits.inFlight && looked < this.#turns.length) {
        const state = this.#turns.shift() as ClientState;
        if (state.running >= this.limits.perClientInFlight) {
          this.#turns.push(state);
          looked += 1;
          continue;
        }
        looked = 0;
        state.running += 1;
        this.#running += 1;
        const wake = state.waiting.shift();
        if (state.waiting.length > 0) this.#turns.push(state);
        wake?.();
      }
    });
  }

  #countQuery(client: string): () => void {
    const now = this.now();
    const state = this.#state(client);
    const recent = state.queries.filter((t) => t > now - MINUTE_MS);
    state.queries = recent;
    const { queriesPerMinute } = this.limits;
    if (recent.length >= queriesPerMinute) {
      const oldest = recent[recent.length - queriesPerMinute] ?? now;
      throw new StoreQuestionLimitError(
        429,
        Math.max(1000, oldest + MINUTE_MS - now),
        `Too many history or event-archive questions from this client (at most ${queriesPerMinute} a minute that are not already answered); cached data stays available`,
      );
    }
    recent.push(now);
    return () => {
      const at = recent.lastIndexOf(now);
      if (at >= 0) recent.splice(at, 1);
    };
  }

  /** At most `queriesInFlight` store queries run at once: each slot is counted before it runs. */
  #reserveQuery(): void {
    this.#queriesRunning += 1;
    this.#queriesPeak = Math.max(this.#queriesPeak, this.#queriesRunning);
  }

  /** Gives a reserved query slot back, once, however often it is called. */
  #queryRelease(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#queriesRunning -= 1;
      this.#queryHandOff();
    };
  }

  /** Wakes waiting queries on the next turn of the event loop, as `#nextTurn` does questions. */
  #queryHandOff(): void {
    if (this.#queryHandOffScheduled || this.#queryWaiting.length === 0) return;
    this.#queryHandOffScheduled = true;
    setImmediate(() => {
      this.#queryHandOffScheduled = false;
      let free = this.limits.queriesInFlight - this.#queriesRunning;
      while (free > 0 && this.#queryWaiting.length > 0) {
        free -= 1;
        this.#reserveQuery();
        this.#queryWaiting.shift()?.();
      }
    });
  }
}
