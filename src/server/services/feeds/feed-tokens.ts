import { z } from 'zod';
import { DAY_MS } from '../../../shared/durations.js';
import type { Principal } from '../../principal.js';
import type { Database } from '../../store/connection.js';
import {
  byHash,
  countLive,
  countUse,
  insertFeedToken,
  listLive,
  revoke,
  type ReachRow,
} from '../../store/reach.js';
import { ApiProblem } from '../api-problem.js';
import { FEED_NAMES, type FeedName } from './feed-names.js';
import {
  baseView,
  expiresField,
  hashOf,
  idOf,
  nameField,
  newSecret,
  whyNotLive,
} from './one-use-secrets.js';

/** Live feed tokens at once: each is a standing credential, so they stay few enough to review. */
export const FEED_TOKENS_MAX = 50;
/** Every feed token starts so: told from an API token (`grd_`) before any store lookup. */
export const FEED_TOKEN_PREFIX = 'grf_';

const feedTokenInputSchema = z.strictObject(
  {
    name: nameField,
    feeds: z
      .array(z.enum(FEED_NAMES, { error: `feeds may name only ${FEED_NAMES.join(', ')}` }), {
        error: `feeds must be a list of feed names (${FEED_NAMES.join(', ')})`,
      })
      .min(1, 'feeds must name at least one feed')
      .max(FEED_NAMES.length, 'feeds names a feed twice'),
    expires_in_days: expiresField,
  },
  { error: 'The body must be {"name": …, "feeds": ["countries", …], "expires_in_days": …}' },
);

function view(row: ReachRow) {
  return { ...baseView(row), feeds: row.feeds.split(',') };
}
export type FeedTokenView = ReturnType<typeof view>;

/**
 * Feed tokens (issue 34): made by an admin for named feeds only, the secret shown once (only its
 * SHA-256 kept), listed with their last use and count, revocable. Each use is checked and counted
 * in the store in one statement, so a revocation holds on every replica from the next read.
 */
export class FeedTokens {
  constructor(
    private readonly db: Database,
    private readonly now: () => number,
  ) {}

  async create(body: unknown, by: Principal): Promise<{ token: FeedTokenView; secret: string }> {
    const parsed = feedTokenInputSchema.safeParse(body);
    if (!parsed.success)
      throw new ApiProblem(400, parsed.error.issues[0]?.message ?? 'Invalid body');
    const feeds = [...new Set(parsed.data.feeds)];
    if (feeds.length !== parsed.data.feeds.length)
      throw new ApiProblem(400, 'feeds names a feed twice');
    const now = this.now();
    if ((await countLive(this.db, 'feed_tokens', now)) >= FEED_TOKENS_MAX) {
      throw new ApiProblem(
        409,
        `There are already ${FEED_TOKENS_MAX} feed tokens, the most there may be: revoke one before making another`,
      );
    }
    const secret = newSecret(FEED_TOKEN_PREFIX);
    const row = await insertFeedToken(this.db, {
      name: parsed.data.name,
      feeds: feeds.join(','),
      secretHash: hashOf(secret),
      createdAt: now,
      createdBy: by.name,
      expiresAt: now + parsed.data.expires_in_days * DAY_MS,
    });
    return { token: view(row), secret };
  }

  async list(): Promise<FeedTokenView[]> {
    return (await listLive(this.db, 'feed_tokens', this.now())).map(view);
  }

  /** Revokes a live token; answers it as it was (for the audit log). */
  async revoke(rawId: string): Promise<FeedTokenView> {
    const row = await revoke(this.db, 'feed_tokens', idOf(rawId, 'feed token'), this.now());
    if (row === null)
      throw new ApiProblem(404, 'No such feed token (it may have been revoked or expired already)');
    return view(row);
  }

  /**
   * Lets `secret` read `feed` once (counted), or a 403 naming why not: not a feed token, unknown,
   * revoked, expired, or made for other feeds.
   */
  async admit(secret: string, feed: FeedName): Promise<FeedTokenView> {
    if (!secret.startsWith(FEED_TOKEN_PREFIX)) {
      throw new ApiProblem(
        403,
        'Feeds are read with a feed token (grf_…) an admin made; this is not one',
      );
    }
    const now = this.now();
    const hash = hashOf(secret);
    const known = await byHash(this.db, 'feed_tokens', hash);
    if (known === null) throw new ApiProblem(403, 'This feed token is not known here');
    const dead = whyNotLive(known, now);
    if (dead !== null) throw new ApiProblem(403, `This feed token was ${dead}`);
    if (!known.feeds.split(',').includes(feed)) {
      throw new ApiProblem(
        403,
        `This feed token reads only ${known.feeds.split(',').join(', ')}, not ${feed}`,
      );
    }
    const used = await countUse(this.db, 'feed_tokens', hash, now);
    // Revoked between the two statements: refused, as it would be a moment later.
    if (used === null) throw new ApiProblem(403, 'This feed token was revoked');
    return view(used);
  }
}
