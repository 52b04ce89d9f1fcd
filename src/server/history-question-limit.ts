import { LRUCache } from 'lru-cache';
import { StoreQueryLimitError } from './store-query-limit.js';
import { MINUTE_MS } from '../shared/durations.js';

/** Clients remembered at once; an address churned out starts with a full budget again. */
const MAX_CLIENTS = 10_000;
/** One unit of a client's budget per started 64 KB of answer (a whole 90-day series: 3). */
export const COST_UNIT_CHARS = 64 * 1024;
/** What a client told its queue is full should wait: an answer takes milliseconds. */
const QUEUE_RETRY_MS = 1000;

export interface HistoryQuestionLimits {
  /** Units one client may spend a minute, and its burst (HISTORY_COST_PER_MINUTE). */
  costPerMinute: number;
  /** One client's questions answered at once (HISTORY_QUESTIONS_PER_CLIENT). */
  perClientInFlight: number;
  /** One client's questions waiting for their turn; one more is a 429 (HISTORY_QUEUE_PER_CLIENT). */
  perClientQueue: number;
  /** Questions answered at once, process-wide (HISTORY_QUESTIONS_IN_FLIGHT). */
  inFlight: number;
}

/** A question let through: call `done` with the answer's length once it is built (once). */
export interface Admission {
  done(answerChars: number): void;
}

interface ClientState {
  /** Units left; below zero after an answer bigger than what was left (paid back over time). */
  tokens: number;
  refilledAt: number;
  running: number;
  waiting: (() => void)[];
}

/**
 * Every history, changes and event-archive question, answered from what the BFF holds or not,
 * passes here once: each client has a budget of cost (a token bucket charged by the answer's
 * size, so a flood of whole series runs out sooner than a person's browsing), a bound on its
 * questions answered at once and on those waiting; process-wide, at most `inFlight` answers are
 * built at once and the waiting clients take turns (round robin, not first come), so one
 * client's many connections cannot crowd out another's question. A refusal is a 429 decided
 * before any work, which costs almost nothing; cached answers of other routes never pass here.
 */
export class HistoryQuestionLimiter {
  readonly #clients = new LRUCache<string, ClientState>({ max: MAX_CLIENTS });
  /** Clients with a question waiting, in the order they take their turns. */
  readonly #turns: ClientState[] = [];
  #running = 0;
  #handOffScheduled = false;

  constructor(
    private readonly limits: HistoryQuestionLimits,
    private readonly now: () => number,
  ) {}

  /** Answers being built now, process-wide (for tests). */
  get running(): number {
    return this.#running;
  }

  /** Questions waiting for their turn, all clients together (for tests). */
  get waiting(): number {
    return this.#turns.reduce((sum, client) => sum + client.waiting.length, 0);
  }

  /**
   * Lets one question of `client` be answered: 429 at once when its budget is spent or its queue
   * is full, else waits for its turn. One unit is reserved now, the rest charged by `done`.
   * `what` names the kind of question in a refusal: the heavy routes of issue 29 (the chain's
   * verification, backtests, imports) take their turns here too, under the same budget.
   */
  async admit(client: string, what = 'history or event-archive'): Promise<Admission> {
    const state = this.#state(client);
    const { costPerMinute, perClientInFlight, perClientQueue } = this.limits;
    if (state.tokens < 1) {
      const waitMs = Math.ceil(((1 - state.tokens) * MINUTE_MS) / costPerMinute);
      throw new StoreQueryLimitError(
        429,
        Math.max(1000, waitMs),
        `Too many ${what} answers for this client: its budget of ${costPerMinute} units a minute (one unit per 64 KB answered) is used up; ask again in ${Math.ceil(Math.max(1000, waitMs) / 1000)} s (cached data stays available)`,
      );
    }
    if (state.running + state.waiting.length >= perClientInFlight + perClientQueue) {
      throw new StoreQueryLimitError(
        429,
        QUEUE_RETRY_MS,
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
      this.#handOff();
    });
    return this.#admission(state);
  }

  #state(client: string): ClientState {
    const now = this.now();
    const { costPerMinute } = this.limits;
    let state = this.#clients.get(client);
    if (!state) {
      state = { tokens: costPerMinute, refilledAt: now, running: 0, waiting: [] };
      this.#clients.set(client, state);
    }
    const refill = ((now - state.refilledAt) * costPerMinute) / MINUTE_MS;
    state.tokens = Math.min(costPerMinute, state.tokens + Math.max(0, refill));
    state.refilledAt = now;
    return state;
  }

  /** Counts a slot, per client and process-wide, before the answer is built. */
  #reserve(state: ClientState): void {
    state.running += 1;
    this.#running += 1;
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
        this.#handOff();
      },
    };
  }

  /**
   * Wakes waiting questions on the next turn of the event loop, never in this one: the sockets
   * that became readable meanwhile (another client's cheap question) are read between two
   * answers. Clients take turns: the one woken goes to the back of the line.
   */
  #handOff(): void {
    if (this.#handOffScheduled || this.#turns.length === 0) return;
    this.#handOffScheduled = true;
    setImmediate(() => {
      this.#handOffScheduled = false;
      let looked = 0;
      while (this.#running < this.limits.inFlight && looked < this.#turns.length) {
        const state = this.#turns.shift() as ClientState;
        if (state.running >= this.limits.perClientInFlight) {
          this.#turns.push(state);
          looked += 1;
          continue;
        }
        looked = 0;
        this.#reserve(state);
        const wake = state.waiting.shift();
        if (state.waiting.length > 0) this.#turns.push(state);
        wake?.();
      }
    });
  }
}
