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
 * after is the write's own answer. Routes that know better say so with recordAudit.
 */
export function installAudit(
  app: FastifyInstance,
  audit: AuditLog,
  opts: { accessConfigured: boolean },
): void {
  app.decorateRequest('auditChange', null);
  const audited = (request: FastifyRequest): boolean =>
    request.routeOptions.url !== undefined &&
    isWrite(request.method) &&
    request.routeOptions.config.signInFree !== true &&
    (request.principal !== null || !opts.accessConfigured);

  app.addHook('preHandler', async (request) => {
    const url = request.routeOptions.url;
    if (url === undefined || request.method === 'POST' || !audited(request)) return;
    if (request.auditChange?.before !== undefined) return;
    if (!app.hasRoute({ method: 'GET', url })) return;
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
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (!audited(request)) return payload;
    const change = request.auditChange ?? {};
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
  });
}
