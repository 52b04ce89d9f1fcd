import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../principal.js';
import { EMBED_SCRIPT_HASH } from '../services/embeds/embed-page.js';
import type { EmbedPages } from '../services/embeds/embed-pages.js';
import type { EmbedAsker, Embeds } from '../services/embeds/embeds.js';
import type { Admission } from '../store-question-limit.js';
import { recordAudit } from '../services/identity/audit.js';
import { heavyReply } from './heavy-reply.js';
import { noQuery } from './params.js';
import { optional, paramsOf, queryOf, zodRoute } from './route-schema.js';

export interface EmbedRouteOptions {
  embeds: Embeds;
  pages: EmbedPages;
  /** PUBLIC_URL, for the iframe URL and the link back; else the address the request reached. */
  linkBase: string | null;
  /**
   * Each load and poll counts a use in the store: admitted first under the viewer's own budget of
   * store questions (the history's limiter, per client address), so a flood from one address is
   * refused (429) before the store is asked, while a page read by many people is not.
   */
  admit: (request: FastifyRequest, what?: string) => Promise<Admission>;
}

const admin = { config: { role: 'admin' as const } };
const pageRoute = {
  ...zodRoute({
    querystring: queryOf({ view: optional }),
    params: paramsOf({ token: z.string().max(100) }),
  }),
  config: { signInFree: true },
};

function ownOrigin(request: FastifyRequest, linkBase: string | null): string {
  return linkBase ?? `${request.protocol}://${request.host}`;
}

function askerOf(request: FastifyRequest, linkBase: string | null): EmbedAsker {
  let refererOrigin: string | null = null;
  const referer = request.headers.referer;
  if (referer) {
    try {
      refererOrigin = new URL(referer).origin;
    } catch {
      refererOrigin = 'an unreadable Referer';
    }
  }
  const view = (request.query as { view?: string }).view;
  return { refererOrigin, ownOrigin: ownOrigin(request, linkBase), askedView: view ?? null };
}

/**
 * The policy of one embed's page: framed by its one origin only (helmet's `frame-ancestors
 * 'none'` and X-Frame-Options are replaced on this answer alone), nothing loaded from anywhere,
 * its one inline script allowed by hash, its polls to this origin.
 */
function embedPolicy(origin: string): string {
  return [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    `script-src ${EMBED_SCRIPT_HASH}`,
    "connect-src 'self'",
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${origin}`,
  ].join('; ');
}

/**
 * Embeds (issue 34): the admin's `/api/embeds` (make, list with use counts, revoke), and each
 * embed's page `/embed/<token>` with the poll its script makes, `/embed/<token>/batch`.
 */
export async function embedRoutes(app: FastifyInstance, opts: EmbedRouteOptions): Promise<void> {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get('/embed/:token', pageRoute, async (request, reply) => {
    let sent = 0;
    return heavyReply(
      reply,
      opts.admit(request, 'embed'),
      async () => {
        const embed = await opts.embeds.open(
          request.params.token,
          askerOf(request, opts.linkBase),
          true,
        );
        const html = await opts.pages.page(embed, ownOrigin(request, opts.linkBase));
        sent = html.length;
        reply.removeHeader('x-frame-options');
        return reply
          .header('content-security-policy', embedPolicy(embed.origin))
          .header('cache-control', 'no-store')
          .header('referrer-policy', 'no-referrer')
          .type('text/html; charset=utf-8')
          .send(html);
      },
      () => sent,
    );
  });
  typed.get('/embed/:token/batch', pageRoute, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return heavyReply(
      reply,
      opts.admit(request, 'embed'),
      async () => {
        await opts.embeds.open(request.params.token, askerOf(request, opts.linkBase), false);
        return { ok: true as const, as_of: await opts.pages.newestBatch() };
      },
      (answer) => JSON.stringify(answer).length,
    );
  });
  adminRoutes(app, opts);
}

function adminRoutes(app: FastifyInstance, opts: EmbedRouteOptions): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/embeds',
    { ...zodRoute({ querystring: noQuery }), ...admin },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { ok: true, embeds: await opts.embeds.list() };
    },
  );
  app.post(
    '/api/embeds',
    { ...zodRoute({ querystring: noQuery }), ...admin },
    async (request, reply) => {
      const made = await opts.embeds.create(request.body, principalOf(request));
      recordAudit(request, {
        action: 'embed created',
        object: `embed ${made.embed.id} “${made.embed.name}”`,
        after: made.embed,
      });
      reply.header('cache-control', 'no-store').code(201);
      // The URL carries the secret: in this answer only, never listed again.
      const url = `${ownOrigin(request, opts.linkBase)}/embed/${made.secret}`;
      return {
        ok: true,
        embed: made.embed,
        url,
        iframe: `<iframe src="${url}" title="${made.embed.name.replace(/["<>&]/g, '')}" width="100%" height="480" style="border:0"></iframe>`,
      };
    },
  );
  const withId = {
    ...zodRoute({ querystring: noQuery, params: paramsOf({ id: z.string() }) }),
    ...admin,
  };
  typed.delete('/api/embeds/:id', withId, async (request) => {
    recordAudit(request, { action: 'embed revoked', object: `embed ${request.params.id}` });
    const revoked = await opts.embeds.revoke(request.params.id);
    recordAudit(request, { object: `embed ${revoked.id} “${revoked.name}”`, before: revoked });
    return { ok: true };
  });
}
