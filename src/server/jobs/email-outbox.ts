import type { SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { DailyDigests } from '../services/alerts/daily-digest.js';
import { quietUntil } from '../services/alerts/local-time.js';
import type { Database } from '../store/connection.js';
import { recordAttempt, type DeliveryRow } from '../store/outbox.js';
import {
  claimDigest,
  holdDelivery,
  nextDigestAt,
  recordDigestAttempt,
  selectSettingsByEmail,
  type DigestRow,
} from '../store/person-settings.js';
import type { Mailer } from './mailer.js';
import {
  afterAttempt,
  attemptWithin,
  ATTEMPT_LIMIT_MS,
  LEASE_MS,
  type Channel,
} from './outbox-lanes.js';
import type { SendResult } from './webhook-sender.js';

/*
 * What the outbox sends by e-mail: the lists' digests (one per batch and list, through the SMTP
 * server's one lane of jobs/outbox-lanes.ts, whose claims, fencing and retries are kept and
 * pinned there) with each recipient's own settings, and people's daily digests (issue 21) in a
 * lane of their own. What this file guarantees, each pinned by a test in test/server:
 *
 * - E-mail off is never sent: a list's e-mail to an address whose person turned e-mail off fails
 *   at once in words, not retried. Pinned by outbox-people.mutation.test.ts "e-mail off: the
 *   delivery fails in words at once, is never sent and never retried".
 * - Quiet hours hold, they do not drop: inside the recipient's quiet hours a non-critical e-mail
 *   is held until they end (its claim released, no attempt counted) and checked again then; a
 *   critical one goes through. Pinned by outbox-people.mutation.test.ts "quiet hours hold a
 *   non-critical e-mail until they end, with no attempt and a log line" and "sends at once what
 *   quiet hours do not hold".
 * - People's digests one at a time, fenced: each due digest is claimed for LEASE_MS under the
 *   leader lease's fence (store/person-settings.ts claimDigest) and sent once, one after
 *   another. Pinned by outbox-people.mutation.test.ts "a replica the leader fence refuses sends
 *   no digest" and "queues what is due, sends each due digest once, logs it, and idle() waits
 *   for it".
 * - A digest retried for 24 h: the outbox's back-off, then failed for good. Pinned by
 *   outbox-people.mutation.test.ts "a failure worth retrying waits its back-off within 24 h,
 *   else the digest fails".
 * - On time in every zone: the worker wakes on each quarter hour (every local hour starts on
 *   one) and for the next digest due. Pinned by outbox-people.mutation.test.ts "wakes for the
 *   next digest due, and on the quarter hour (a local hour starts on one)".
 */

const NO_SMTP: SendResult = {
  status: null,
  retryAfterMs: null,
  durationMs: 0,
  error: 'SMTP is not configured',
  retryable: false,
};

const QUARTER_HOUR = 15 * 60_000;
/** Time zones are offset by whole quarter hours: every local hour starts on one of these. */
const nextQuarterHour = (t: number): number => t - (t % QUARTER_HOUR) + QUARTER_HOUR;

interface EmailDeps {
  db: Database;
  logger: FastifyBaseLogger;
  mailer: Mailer | null;
}

/** The lists' e-mail digests, for the outbox's lanes (all of them share the SMTP server's). */
export function listEmails(deps: EmailDeps): Channel {
  return {
    settle: (delivery, at) => heldByPerson(deps, delivery, at),
    send: (delivery) => (deps.mailer ? deps.mailer.send(delivery.body) : Promise.resolve(NO_SMTP)),
  };
}

/**
 * A person's settings for an e-mail to their address: e-mail off refuses it (never sent);
 * in their quiet hours a non-critical one is held until they end (no attempt counted).
 * Returns true when the delivery was settled here and must not be sent now.
 */
async function heldByPerson(deps: EmailDeps, delivery: DeliveryRow, at: Date): Promise<boolean> {
  const mail = JSON.parse(delivery.body) as { to?: unknown; critical?: unknown };
  if (typeof mail.to !== 'string') return false;
  const person = await selectSettingsByEmail(deps.db, mail.to);
  if (person === null) return false;
  if (!person.emailEnabled) {
    await recordAttempt(deps.db, delivery, {
      at,
      status: null,
      durationMs: 0,
      error: 'not sent: the recipient turned e-mail off in their settings',
      state: 'failed',
      nextAttemptAt: null,
    });
    return true;
  }
  if (mail.critical === true || person.quietStart === null || person.quietEnd === null) {
    return false;
  }
  const until = quietUntil(at.getTime(), person.timeZone, person.quietStart, person.quietEnd);
  if (until === null) return false;
  // Held, not attempted: the claim is released and the delivery falls due when quiet ends.
  await holdDelivery(deps.db, delivery.id, new Date(until));
  deps.logger.info(
    { delivery: delivery.messageId, until: new Date(until).toISOString() },
    'e-mail held for the recipient’s quiet hours',
  );
  return true;
}

export interface PeoplesDigestsDeps extends EmailDeps {
  now: () => number;
  /** People's daily digests (issue 21); nothing is built or sent without them and a mailer. */
  digests: DailyDigests | null;
  /** Replicas: the leader lease's condition, so only the current leader claims digests. */
  fence: SQL | null;
  random: () => number;
  attemptLimitMs?: number;
  /** The lane sent something and ended: look again at once. */
  onSent: () => void;
}

/** People's daily digests: built when due, then sent in their own lane, one at a time. */
export class PeoplesDigests {
  /** The digests' lane: one digest at a time, beside the endpoints' lanes. */
  #lane: Promise<void> | null = null;
  #stopped = false;

  constructor(private readonly deps: PeoplesDigestsDeps) {}

  /** Queues the digests due now and starts their lane (one digest at a time). */
  async dispatch(): Promise<void> {
    const { digests, mailer } = this.deps;
    if (this.#stopped || !digests || !mailer || this.#lane) return;
    await digests.queueDue(this.deps.now());
    this.#lane = this.#sendAll().then(
      (sent) => {
        this.#lane = null;
        if (sent > 0) this.deps.onSent();
      },
      (error: unknown) => {
        this.#lane = null;
        this.deps.logger.error({ err: error }, 'daily digest delivery failed');
      },
    );
  }

  /**
   * When to wake for digests: the next quarter hour (a local hour may start then), or the next
   * digest due if sooner; null without digests or a mailer.
   */
  async wakeAt(): Promise<number | null> {
    if (!this.deps.digests || !this.deps.mailer) return null;
    const at = nextQuarterHour(this.deps.now());
    const due = await nextDigestAt(this.deps.db).catch(() => null);
    return due ? Math.min(at, Math.max(due.getTime(), this.deps.now())) : at;
  }

  /** The lane in flight, if any. */
  inFlight(): Array<Promise<void>> {
    return this.#lane ? [this.#lane] : [];
  }

  /** Claims nothing more (the digest under way still ends). */
  stop(): void {
    this.#stopped = true;
  }

  async #sendAll(): Promise<number> {
    let sent = 0;
    while (!this.#stopped) {
      const now = new Date(this.deps.now());
      const digest = await claimDigest(this.deps.db, now, LEASE_MS, this.deps.fence);
      if (!digest) break;
      await this.#deliver(digest, now);
      sent += 1;
    }
    return sent;
  }

  async #deliver(digest: DigestRow, at: Date): Promise<void> {
    const { mailer } = this.deps;
    const result = await attemptWithin(this.deps.attemptLimitMs ?? ATTEMPT_LIMIT_MS, () =>
      mailer ? mailer.send(digest.body) : Promise.resolve(NO_SMTP),
    );
    const { state, nextAttemptAt } = afterAttempt(result, digest, at, this.deps.random);
    await recordDigestAttempt(this.deps.db, digest, { state, error: result.error, nextAttemptAt });
    this.deps.logger.info(
      { delivery: digest.messageId, channel: 'digest', attempt: digest.attempts + 1, state },
      result.error === null ? 'daily digest delivered' : 'daily digest delivery failed',
    );
  }
}
