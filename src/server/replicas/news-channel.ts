import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { z } from 'zod';
import type { Secret } from '../secret.js';
import type { Database } from '../store/connection.js';
import { notify, NOTIFY_CHANNEL } from '../store/replica-news.js';

/** News replicas tell each other (LISTEN/NOTIFY). `from` is the sender's holder id (its own news is ignored). */
const messageSchema = z.discriminatedUnion('kind', [
  /** An upstream answer showed a newer batch than any before. */
  z.object({ kind: z.literal('batch-seen'), from: z.string(), as_of: z.string().max(40) }),
  /** The leader recorded a batch, or events were archived: memoised history answers are old. */
  z.object({ kind: z.literal('store-changed'), from: z.string() }),
  /** A delivery was queued (a test send from a follower): the leader's outbox should look. */
  z.object({ kind: z.literal('outbox'), from: z.string() }),
  /** A browser signed out: every replica forgets the session at once. */
  z.object({ kind: z.literal('session-revoked'), from: z.string(), id_hash: z.string().max(64) }),
]);
export type ReplicaNews = z.infer<typeof messageSchema>;
type Body<K> = K extends ReplicaNews['kind']
  ? Omit<Extract<ReplicaNews, { kind: K }>, 'from'>
  : never;

const RECONNECT_MS = 2_000;
const CONNECT_TIMEOUT_MS = 3_000;

export interface NewsChannelDeps {
  url: Secret;
  db: Database;
  holder: string;
  logger: FastifyBaseLogger;
  onMessage: (message: ReplicaNews) => void;
  /** Called after the listening connection came back: news sent meanwhile was lost. */
  onResync: () => void;
}

/**
 * LISTEN/NOTIFY between replicas on one dedicated connection, reconnected every 2 s while
 * PostgreSQL is away. Notifications are hints, never the only path: after a reconnect the
 * replica re-reads what it may have missed, and the heartbeat and status polls catch the rest.
 */
export class NewsChannel {
  #client: pg.Client | null = null;
  #timer: NodeJS.Timeout | null = null;
  #closed = false;
  #lostOnce = false;

  constructor(private readonly deps: NewsChannelDeps) {}

  async start(): Promise<void> {
    await this.#connect();
  }

  publish(message: Body<ReplicaNews['kind']>): void {
    const payload = JSON.stringify({ ...message, from: this.deps.holder });
    notify(this.deps.db, payload).catch(() => {
      // A lost hint: the others catch up on their next heartbeat or status poll.
    });
  }

  async stop(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    const client = this.#client;
    this.#client = null;
    await client?.end().catch(() => undefined);
  }

  async #connect(): Promise<void> {
    if (this.#closed) return;
    const client = new pg.Client({
      connectionString: this.deps.url.reveal(),
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
    });
    const lost = (): void => {
      if (this.#client !== client) return;
      this.#client = null;
      this.#lostOnce = true;
      client.end().catch(() => undefined);
      this.#retry();
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (message) => {
      if (message.channel !== NOTIFY_CHANNEL || !message.payload) return;
      let parsed: ReplicaNews;
      try {
        parsed = messageSchema.parse(JSON.parse(message.payload));
      } catch {
        return;
      }
      if (parsed.from !== this.deps.holder) this.deps.onMessage(parsed);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
    } catch {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      this.#lostOnce = true;
      this.#retry();
      return;
    }
    if (this.#closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.#client = client;
    if (this.#lostOnce) {
      this.deps.logger.info('listening to the other replicas again');
      this.deps.onResync();
    }
  }

  #retry(): void {
    if (this.#closed || this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.#connect();
    }, RECONNECT_MS);
    this.#timer.unref();
  }
}
