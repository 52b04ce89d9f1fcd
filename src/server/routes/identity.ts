import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Me } from '../../shared/roles.js';
import { principalOf, type SessionSummary } from '../principal.js';
import type { ApiTokens } from '../services/identity/api-tokens.js';
import { recordAudit } from '../services/identity/audit.js';
import { ApiProblem } from '../services/api-problem.js';
import { noQuery } from './params.js';
import { paramsOf, zodRoute } from './route-schema.js';

/** The sessions an admin may list and end (the access plugin's session store). */
export interface AdminSessions {
  list(): Promise<SessionSummary[]>;
  revokeListed(idHash: string): Promise<boolean>;
}

export interface IdentityRouteOptions {
  /** Where a browser signs out (a form POST), or null. */
  signOutPath: string | null;
  /** Null without a store (API tokens need one). */
  apiTokens: ApiTokens | null;
  /** Null without access control (nobody signs in). */
  sessions: AdminSessions | null;
}

const admin = { config: { role: 'admin' as const } };
const iso = (ms: number): string => new Date(ms).toISOString();

/** A session as an admin sees it: `id` is its opaque handle, never the cookie's value. */
function sessionView(s: SessionSummary) {
  return {
    id: s.id,
    name: s.principal.name,
    email: s.principal.email,
    role: s.principal.role,
    via: s.principal.via,
    address: s.address,
    created_at: iso(s.createdAt),
    last_seen_at: iso(s.lastSeen),
    expires_at: iso(s.expiresAt),
  };
}

/** `/api/me`; for admins `/api/tokens` (make, list, revoke) and `/api/sessions` (list, end). */
export async function identityRoutes(
  app: FastifyInstance,
  opts: IdentityRouteOptions,
): Promise<void> {
  meRoute(app, opts);
  tokenRoutes(app, opts);
  sessionRoutes(app, opts);
}

const withId = {
  ...zodRoute({ querystring: noQuery, params: paramsOf({ id: z.string() }) }),
  ...admin,
};
const noStore = (reply: FastifyReply): FastifyReply => reply.header('cache-control', 'no-store');

/** Who the asker is, and how they sign out. */
function meRoute(app: FastifyInstance, opts: IdentityRouteOptions): void {
  app.get('/api/me', zodRoute({ querystring: noQuery }), async (request, reply) => {
    const who = principalOf(request);
    noStore(reply);
    const me: Me = {
      ok: true,
      name: who.name,
      email: who.email,
      role: who.role,
      via: who.via,
      sign_out: who.via === 'oidc' || who.via === 'dashboard-token' ? opts.signOutPath : null,
    };
    return me;
  });
}

/** API tokens: made (the secret shown once), listed and revoked by admins. */
function tokenRoutes(app: FastifyInstance, opts: IdentityRouteOptions): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const tokens = (): ApiTokens => {
    if (opts.apiTokens === null) {
      throw new ApiProblem(409, 'API tokens need the store (DATA_DIR or DATABASE_URL)');
    }
    return opts.apiTokens;
  };
  app.get(
    '/api/tokens',
    { ...zodRoute({ querystring: noQuery }), ...admin },
    async (_request, reply) => {
      noStore(reply);
      return { ok: true, tokens: await tokens().list() };
    },
  );
  app.post(
    '/api/tokens',
    { ...zodRoute({ querystring: noQuery }), ...admin },
    async (request, reply) => {
      const made = await tokens().create(request.body, principalOf(request));
      recordAudit(request, {
        action: 'API token created',
        object: `API token ${made.token.id} “${made.token.name}”`,
        after: made.token,
      });
      noStore(reply).code(201);
      // The secret is in this answer only: it is stored as a hash and never shown again.
      return { ok: true, token: made.token, secret: made.secret };
    },
  );
  typed.delete('/api/tokens/:id', withId, async (request) => {
    recordAudit(request, {
      action: 'API token revoked',
      object: `API token ${request.params.id}`,
    });
    const revoked = await tokens().revoke(request.params.id);
    recordAudit(request, {
      object: `API token ${revoked.id} “${revoked.name}”`,
      before: revoked,
    });
    return { ok: true };
  });
}

/** Signed-in sessions: listed and ended by admins. */
function sessionRoutes(app: FastifyInstance, opts: IdentityRouteOptions): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/sessions',
    { ...zodRoute({ querystring: noQuery }), ...admin },
    async (_request, reply) => {
      noStore(reply);
      const listed = (await opts.sessions?.list()) ?? [];
      return { ok: true, sessions: listed.map(sessionView) };
    },
  );
  typed.delete('/api/sessions/:id', withId, async (request) => {
    const id = request.params.id;
    // The handle is never written to the log: the entry names whose session it was.
    recordAudit(request, { action: 'session revoked', object: 'a session' });
    if (!/^[A-Za-z0-9_-]{43}$/.test(id)) {
      throw new ApiProblem(400, 'The session id must be one /api/sessions lists');
    }
    const listed = (await opts.sessions?.list())?.find((s) => s.id === id);
    if (listed) {
      const { id: _handle, ...before } = sessionView(listed);
      recordAudit(request, { object: `session of ${listed.principal.name}`, before });
    }
    if (!(await opts.sessions?.revokeListed(id))) {
      throw new ApiProblem(404, 'No such session (it may have ended already)');
    }
    return { ok: true };
  });
}
