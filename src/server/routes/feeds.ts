import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { presentedFeedToken } from '../services/feeds/presented-token.js';
import { principalOf } from '../principal.js';
import { ApiProblem } from '../refusals.js';
import { recordAudit } from '../services/identity/audit.js';
import type { FeedAnswer, FeedAnswers } from '../services/feeds/feed-answers.js';
import type { FeedName } from '../services/feeds/feed-names.js';
import { FEED_TOKEN_PREFIX, type FeedTokens } from '../services/feeds/feed-tokens.js';
import { hashOf } from '../services/feeds/one-use-secrets.js';
import type { StoreQuestionLimiter } from '../store-question-limit.js';
import { BadRequest, noQuery, parseAsOf, parseIso, parseTime } from './params.js';
import { optional, paramsOf, queryOf, rule, zodRoute } from './route-schema.js';
import { reply400 } from './store-reply.js';
import { z as zod } from 'zod';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A feed (issue 34): read with a feed token; the feed-token guard lets such tokens in here only. */
    feed?: true;
  }
}

export interface FeedRouteOptions {
  tokens: FeedTokens;
  answers: FeedAnswers;
  /** Each feed token's reads, limited as any client's store questions (store-question-limit.ts). */
  limiter: StoreQuestionLimiter;
}

const need = (name: string, value: string | undefined, example: string): string => {
  if (value === undefined || value === '')
    throw new BadRequest(`${name} is required, such as ${name}=${example}`);
  return value;
};
const range = (q: { from?: string; to?: string }) => {
  const from = parseTime('from', q.from);
  const to = parseTime('to', q.to);
  if (from && to && from > to) throw new BadRequest('from is after to');
  return { from, to };
};

/** Each feed: its query (token included) and the answer it builds from what the BFF holds. */
function feedSpecs(answers: FeedAnswers) {
  const token = { token: optional };
  return {
    countries: {
      query: queryOf({ ...token, as_of: optional }).transform(
        rule((q: { as_of?: string }) => ({ asOf: parseAsOf(q.as_of) })),
      ),
      answer: (q: { asOf: Date | null }) => answers.countries(q.asOf),
    },
    'country-history': {
      query: queryOf({ ...token, iso: optional, from: optional, to: optional }).transform(
        rule((q: { iso?: string; from?: string; to?: string }) => {
          // A wrong value given is named before a value missing: the more specific problem.
          const period = range(q);
          return { iso: parseIso(need('iso', q.iso, 'UKR')), ...period };
        }),
      ),
      answer: (q: { iso: string; from: Date | null; to: Date | null }) =>
        answers.countryHistory(q.iso, q),
    },
    'watchlist-countries': {
      query: queryOf({ ...token, watchlist: optional }).transform(
        rule((q: { watchlist?: string }) => ({ watchlist: need('watchlist', q.watchlist, '12') })),
      ),
      answer: (q: { watchlist: string }) => answers.watchlistCountries(q.watchlist),
    },
    alerts: {
      query: queryOf({ ...token, from: optional, to: optional }).transform(rule(range)),
      answer: (q: { from: Date | null; to: Date | null }) => answers.alerts(q),
    },
  } satisfies Record<
    FeedName,
    { query: z.core.$ZodType; answer: (q: never) => Promise<FeedAnswer> }
  >;
}

/**
 * The feeds, `GET /api/feeds/<name>.csv` and `.json` (issue 34): answered to a feed token made
 * for that feed (checked here, not by sign-in: the tools that read feeds cannot sign in), each
 * token's reads limited like any client's; and the admin's `/api/feed-tokens`.
 */
export async function feedRoutes(app: FastifyInstance, opts: FeedRouteOptions): Promise<void> {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  for (const [name, spec] of Object.entries(feedSpecs(opts.answers))) {
    for (const format of ['csv', 'json'] as const) {
      const options = {
        ...zodRoute({ querystring: spec.query }),
        config: { signInFree: true, feed: true as const },
      };
      typed.get(`/api/feeds/${name}.${format}`, options, (request, reply) =>
        replyFeed(request, reply, opts, {
          name: name as FeedName,
          format,
          build: () => (spec.answer as (q: unknown) => Promise<FeedAnswer>)(request.query),
        }),
      );
    }
  }
  feedTokenRoutes(app, opts.tokens);
}

async function replyFeed(
  request: FastifyRequest,
  reply: FastifyReply,
  opts: FeedRouteOptions,
  feed: { name: FeedName; format: 'csv' | 'json'; build: () => Promise<FeedAnswer> },
): Promise<FastifyReply> {
  const secret = presentedFeedToken(request, FEED_TOKEN_PREFIX);
  if (secret === null) {
    throw new ApiProblem(
      401,
      'A feed needs its feed token: add ?token=grf_… to the URL, or send Authorization: Bearer grf_…',
    );
  }
  // Limited by the token before the store is asked anything, so a flood costs nothing.
  const admission = opts.limiter.admit(`feed:${hashOf(secret).slice(0, 32)}`, 'feed');
  return reply400(
    reply,
    async () => {
      await opts.tokens.admit(secret, feed.name);
      const built = await feed.build();
      const headers = { 'cache-control': 'private, no-cache', 'referrer-policy': 'no-referrer' };
      if (feed.format === 'json') {
        return {
          body: Buffer.from(JSON.stringify(built.json)),
          contentType: 'application/json; charset=utf-8',
          headers,
        };
      }
      return {
        body: built.csv,
        contentType: 'text/csv; charset=utf-8',
        headers: { ...headers, 'content-disposition': `inline; filename="${built.fileName}"` },
      };
    },
    admission,
  );
}

const admin = { config: { role: 'admin' as const } };

/** Feed tokens: made (the secret shown once), listed and revoked by admins; each in the audit log. */
function feedTokenRoutes(app: FastifyInstance, tokens: FeedTokens): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/feed-tokens',
    { ...zodRoute({ querystring: noQuery }), ...admin },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { ok: true, tokens: await tokens.list() };
    },
  );
  app.post(
    '/api/feed-tokens',
    { ...zodRoute({ querystring: noQuery }), ...admin },
    async (request, reply) => {
      const made = await tokens.create(request.body, principalOf(request));
      recordAudit(request, {
        action: 'feed token created',
        object: `feed token ${made.token.id} “${made.token.name}”`,
        after: made.token,
      });
      reply.header('cache-control', 'no-store').code(201);
      // The secret is in this answer only: it is stored as a hash and never shown again.
      return { ok: true, token: made.token, secret: made.secret };
    },
  );
  const withId = {
    ...zodRoute({ querystring: noQuery, params: paramsOf({ id: zod.string() }) }),
    ...admin,
  };
  typed.delete('/api/feed-tokens/:id', withId, async (request) => {
    recordAudit(request, {
      action: 'feed token revoked',
      object: `feed token ${request.params.id}`,
    });
    const revoked = await tokens.revoke(request.params.id);
    recordAudit(request, { object: `feed token ${revoked.id} “${revoked.name}”`, before: revoked });
    return { ok: true };
  });
}
