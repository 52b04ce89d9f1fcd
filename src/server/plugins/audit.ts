import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { recordAudit, type AuditLog } from '../services/identity/audit.js';
import { isWrite } from './roles.js';

/** Request headers that say who is asking (copied to the read of an object's state before). */
const NOT_IDENTITY = new Set([
  'content-length',
  'content-type',
  'transfer-encoding',
  'if-match',
  'if-none-match',
  'expect',
]);
/** An answer larger than this is not read back as the object's state after. */
const ANSWER_READ_MAX = 256 * 1024;

function pathOf(request: FastifyRequest): string {
  return request.url.split('?')[0] ?? request.url;
}

/** A JSON answer's fields without `ok`; null when it is not JSON or says nothing more. */
function answerBody(payload: unknown, reply: FastifyReply): Record<string, unknown> | null {
  const type = String(reply.getHeader('content-type') ?? '');
  if (!type.includes('json')) return null;
  const text =
    typeof payload === 'string'
      ? payload
      : Buffer.isBuffer(payload) && payload.length <= ANSWER_READ_MAX
        ? payload.toString('utf8')
        : null;
  return text === null ? null : jsonFields(text);
}

function jsonFields(text: string): Record<string, unknown> | null {
  if (text.length > ANSWER_READ_MAX) return null;
  try {
    const value = JSON.parse(text) as unknown;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
    const { ok: _ok, ...rest } = value as Record<string, unknown>;
    return Object.keys(rest).length > 0 ? rest : null;
  } catch {
    return null;
  }
}

/**
 * Every write is audited (issue 21), in one place: a hook on every route, so a new write route
 * is recorded without anyone remembering to. A write is any method but GET, HEAD and OPTIONS that
 * a route answered for someone known (refusals included, with their words); sign-in and sign-out
 * come before anyone is known and record themselves (oidc-sign-in.ts, access.ts). The object's
 * state before is what a GET of the same address answered just before (when the route has one);
 * after is the write's own answer. Routes that know better say so with recordAudit. The hooks are
 * those of the write routes only, decided when each is registered: a read (every cached answer)
 * passes none. A write route registered before this is installed would not be audited: the app
 * refuses to start if there is one.
 */
export function installAudit(
  app: FastifyInstance,
  audit: AuditLog,
  opts: { accessConfigured: boolean },
): void {
  if (!app.hasDecorator('registeredRoutes')) throw new Error('installAudit needs collectRoutes');
  app.decorateRequest('auditChange', null);
  // The route's part (a write that is not sign-in) was decided when it was registered.
  const audited = (request: FastifyRequest): boolean =>
    request.principal !== null || !opts.accessConfigured;

  const readBefore = async (request: FastifyRequest): Promise<void> => {
    if (!audited(request)) return;
    if (request.auditChange?.before !== undefined) return;
    const url = request.routeOptions.url;
    if (url === undefined || !app.hasRoute({ method: 'GET', url })) return;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string' && !NOT_IDENTITY.has(name)) headers[name] = value;
    }
    // As the same person from the same connection, so the read sees what they may see.
    const read = await app.inject({
      method: 'GET',
      url: pathOf(request),
      headers,
      remoteAddress: request.socket.remoteAddress,
    });
    if (read.statusCode === 200) {
      recordAudit(request, { before: jsonFields(read.body) });
    }
  };

  const record = async (
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
  ): Promise<unknown> => {
    if (!audited(request)) return payload;
    const change = request.auditChange ?? {};
    if (change.trial) return payload;
    const done = reply.statusCode < 400;
    const answer = answerBody(payload, reply);
    // Recorded before the answer leaves: a write acknowledged is a write in the log. A store
    // failure here is logged by the log itself; the write it describes is done either way.
    await audit
      .record({
        actor: request.principal,
        address: request.ip,
        action: change.action ?? `${request.method} ${request.routeOptions.url}`,
        object: change.object ?? pathOf(request),
        status: reply.statusCode,
        detail: done ? null : typeof answer?.error === 'string' ? answer.error : null,
        before: change.before,
        after: !done ? undefined : change.after !== undefined ? change.after : answer,
      })
      .catch(() => undefined);
    return payload;
  };

  hookWriteRoutes(app, readBefore, record);
}

/**
 * Puts `readBefore` (preHandler) and `record` (onSend) on every audited write route as it is
 * registered, first among the route's own hooks, as when they were the app's. A route that also
 * takes reads (one route, several methods) lets them pass. A POST makes something new: there is
 * no state before to read. Start-up fails if a write route was registered before this.
 */
function hookWriteRoutes(
  app: FastifyInstance,
  readBefore: (request: FastifyRequest) => Promise<void>,
  record: (request: FastifyRequest, reply: FastifyReply, payload: unknown) => Promise<unknown>,
): void {
  const hooked = new Set<string>();
  app.addHook('onRoute', (route) => {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((method) =>
      writeAudited(method, route.config),
    );
    if (methods.length === 0) return;
    if (methods.some((method) => method !== 'POST')) {
      const before = async (request: FastifyRequest): Promise<void> => {
        if (request.method !== 'POST' && isWrite(request.method)) await readBefore(request);
      };
      route.preHandler = [before, ...asArray(route.preHandler)];
    }
    const after = async (
      request: FastifyRequest,
      reply: FastifyReply,
      payload: unknown,
    ): Promise<unknown> => (isWrite(request.method) ? record(request, reply, payload) : payload);
    route.onSend = [after, ...asArray(route.onSend)];
    for (const method of methods) hooked.add(`${method} ${route.url}`);
  });
  app.addHook('onReady', (done) => {
    const missed = app
      .registeredRoutes()
      .filter((route) => writeAudited(route.method, route))
      .filter((route) => !hooked.has(`${route.method} ${route.url}`));
    if (missed.length === 0) return done();
    const names = missed.map((route) => `${route.method} ${route.url}`).join(', ');
    done(new Error(`Write routes registered before installAudit are not audited: ${names}`));
  });
}

/** A write that is not sign-in, sign-out or a probe (those record themselves, or nothing). */
function writeAudited(method: string, config: { signInFree?: boolean } | undefined): boolean {
  return isWrite(method) && config?.signInFree !== true;
}

function asArray<T>(hooks: T | T[] | undefined): T[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}
