import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { versionEtag } from '../services/alerts/alert-views.js';
import { ApiProblem, type Viewer, type WatchlistService } from '../services/alerts/watchlists.js';
import type { BacktestRequests } from '../services/alerts/backtest-request.js';
import type { DeliveryLogView } from '../services/alerts/delivery-log.js';
import { roleAtLeast } from '../../shared/roles.js';
import { principalOf } from '../principal.js';
import { noQuery } from './params.js';
import { paramsOf, zodRoute } from './route-schema.js';
import { heavyReply } from './heavy-reply.js';
import { recordAudit } from '../services/identity/audit.js';
import type { Admission } from '../store-question-limit.js';

export interface WatchlistRouteOptions {
  watchlists: WatchlistService;
  backtests: BacktestRequests;
  deliveryLog: DeliveryLogView;
  viewerOf: (request: FastifyRequest) => Viewer;
  /** A backtest's turn under its client's budget (store-question-limit.ts, issue 29). */
  admit?: (request: FastifyRequest, what: string) => Promise<Admission>;
}

/** Anyone signed in may keep personal lists; the team's lists and webhooks need an editor. */
const viewer = { config: { role: 'viewer' as const } };

/**
 * Refuses a viewer's change to a team list or a webhook (issue 21). `teamList` is whether the
 * list is (or, created, would be) the team's.
 */
function editorCheck(request: FastifyRequest, teamList: boolean, body: unknown): void {
  const role = principalOf(request).role;
  if (roleAtLeast(role, 'editor')) return;
  if (teamList) {
    throw new ApiProblem(
      403,
      `Your role (${role}) may not change the team's watchlists: it needs an editor or above. Personal lists (scope "user") are yours to change.`,
    );
  }
  const webhook = (body as { webhook_url?: unknown } | null)?.webhook_url;
  if (typeof webhook === 'string' && webhook !== '') {
    throw new ApiProblem(
      403,
      `Your role (${role}) may not set webhooks: it needs an editor or above. E-mail delivery is yours to set.`,
    );
  }
}

/** `/api/watchlists`: list, create, read, replace (If-Match), delete (If-Match), test, log. */
export async function watchlistRoutes(
  app: FastifyInstance,
  opts: WatchlistRouteOptions,
): Promise<void> {
  const { watchlists } = opts;
  // Ids are checked by the service (a plain-word 400 or 404); the schema only types them.
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const withId = zodRoute({ querystring: noQuery, params: paramsOf({ id: z.string() }) });
  const noStore = (reply: FastifyReply): FastifyReply => reply.header('cache-control', 'no-store');
  // A viewer's change to an existing list: allowed on their own personal list only.
  const existingCheck = async (request: FastifyRequest, id: string, body: unknown) => {
    if (roleAtLeast(principalOf(request).role, 'editor')) return;
    const row = await watchlists.row(id, opts.viewerOf(request));
    editorCheck(request, row.owner === null, body);
  };

  app.get('/api/watchlists', zodRoute({ querystring: noQuery }), async (request, reply) => {
    noStore(reply);
    return { ok: true, watchlists: await watchlists.list(opts.viewerOf(request)) };
  });

  app.post(
    '/api/watchlists',
    { ...zodRoute({ querystring: noQuery }), ...viewer },
    async (request, reply) => {
      const scope = (request.body as { scope?: unknown } | null)?.scope;
      editorCheck(request, scope !== 'user', request.body);
      const { row, secret } = await watchlists.create(request.body, opts.viewerOf(request));
      noStore(reply)
        .code(201)
        .header('etag', versionEtag(row))
        .header('location', `/api/watchlists/${row.id}`);
      return {
        ok: true,
        watchlist: await watchlists.view(row, opts.viewerOf(request)),
        ...(secret ? { webhook_secret: secret } : {}),
      };
    },
  );

  // Rules tried on the stored history before they are saved (issue 22): nothing is written,
  // so anyone who may read may try a rule.
  app.post(
    '/api/watchlists/backtest',
    { ...zodRoute({ querystring: noQuery }), ...viewer },
    async (request, reply) => {
      noStore(reply);
      // A trial on the history, not a change: the audit log does not record it.
      recordAudit(request, { trial: true });
      // Heavy (every batch held, each list's countries × rules): admitted per client like a
      // history question; the same list and rules are answered once per store revision.
      return heavyReply(
        reply,
        opts.admit?.(request, 'backtest') ?? null,
        () => opts.backtests.run(request.body, opts.viewerOf(request)),
        (answer) => answer.countries.length * answer.rules.length * 256,
      );
    },
  );

  typed.get('/api/watchlists/:id', withId, async (request, reply) => {
    const row = await watchlists.row(request.params.id, opts.viewerOf(request));
    noStore(reply).header('etag', versionEtag(row));
    return { ok: true, watchlist: await watchlists.view(row, opts.viewerOf(request)) };
  });

  typed.put('/api/watchlists/:id', { ...withId, ...viewer }, async (request, reply) => {
    await existingCheck(request, request.params.id, request.body);
    const { row, secret } = await watchlists.update(
      request.params.id,
      request.headers['if-match'],
      request.body,
      opts.viewerOf(request),
    );
    noStore(reply).header('etag', versionEtag(row));
    return {
      ok: true,
      watchlist: await watchlists.view(row, opts.viewerOf(request)),
      ...(secret ? { webhook_secret: secret } : {}),
    };
  });

  typed.delete('/api/watchlists/:id', { ...withId, ...viewer }, async (request) => {
    await existingCheck(request, request.params.id, null);
    await watchlists.remove(request.params.id, request.headers['if-match'], opts.viewerOf(request));
    return { ok: true };
  });

  typed.post('/api/watchlists/:id/test', { ...withId, ...viewer }, async (request, reply) => {
    await existingCheck(request, request.params.id, null);
    const id = await watchlists.sendTest(request.params.id, opts.viewerOf(request));
    reply.code(202);
    return { ok: true, message_id: id };
  });

  typed.get('/api/watchlists/:id/deliveries', withId, async (request, reply) => {
    const row = await watchlists.row(request.params.id, opts.viewerOf(request));
    noStore(reply);
    return { ok: true, deliveries: await opts.deliveryLog.of(row.id) };
  });
}
