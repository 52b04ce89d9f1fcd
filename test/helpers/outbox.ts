import { TEAM_WATCHLISTS_MAX } from '../../src/shared/alerts-api.js';
import type { Mailer } from '../../src/server/jobs/mailer.js';
import { OutboxWorker, type OutboxDeps } from '../../src/server/jobs/outbox-worker.js';
import type { SendResult } from '../../src/server/jobs/webhook-sender.js';
import { newWebhookSecret } from '../../src/server/services/alerts/watchlists.js';
import type { Database } from '../../src/server/store/connection.js';
import { insertWatchlist } from '../../src/server/store/watchlists.js';
import { ManualScheduler } from './manual-scheduler.js';

/*
 * What the outbox worker's tests build the same way: the worker on a store with a fixed clock,
 * the list its deliveries belong to, a mailer's answers and a logger whose lines they read.
 */

/** The answer of a receiver that took the message (an SMTP 250). */
export const ACCEPTED: SendResult = {
  status: 250,
  retryAfterMs: null,
  durationMs: 1,
  error: null,
  retryable: false,
};

/** A mailer that takes every message at once. */
export const acceptingMailer: Mailer = { send: () => Promise.resolve(ACCEPTED), close() {} };

export const silentLogger = { info() {}, warn() {}, error() {} } as never;

export interface LogLine {
  level: string;
  fields: { err?: unknown } & Record<string, unknown>;
  message: string;
}

/** A logger that keeps its lines for the test to read. */
export function recordingLogger(): { lines: LogLine[]; logger: never } {
  const lines: LogLine[] = [];
  const at =
    (level: string) =>
    (fields: LogLine['fields'], message: string): void => {
      lines.push({ level, fields, message });
    };
  return { lines, logger: { info: at('info'), warn: at('warn'), error: at('error') } as never };
}

/**
 * The worker on `db` at `now`: no mailer, a scheduler the test advances, no jitter, private
 * receivers allowed and 2 s to connect and to send; `extra` replaces any of these.
 */
export function testOutboxWorker(
  db: Database,
  now: () => number,
  extra: Partial<OutboxDeps> = {},
): OutboxWorker {
  return new OutboxWorker({
    db,
    now,
    logger: silentLogger,
    mailer: null,
    scheduler: new ManualScheduler(now),
    random: () => 0.5,
    send: { allowPrivate: true, connectTimeoutMs: 2_000, totalTimeoutMs: 2_000 },
    ...extra,
  });
}

/** A team list of one country and no rules, e-mailing the desk; signed webhooks to `url`, if any. */
export async function deliveryList(
  db: Database,
  name: string,
  webhookUrl: string | null,
): Promise<number> {
  const row = await insertWatchlist(
    db,
    {
      name,
      countries: ['MLI'],
      rules: [],
      owner: null,
      webhookUrl,
      webhookFormat: 'standard',
      webhookSecret: webhookUrl ? newWebhookSecret() : null,
      email: 'desk@example.com',
    },
    TEAM_WATCHLISTS_MAX,
  );
  return row!.id;
}
