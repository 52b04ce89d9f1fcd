import type { FastifyReply } from 'fastify';

/** Every error of the BFF: `{"ok": false, "error": "<plain words>"}`, with Retry-After when known. */
export function sendError(
  reply: FastifyReply,
  status: number,
  error: string,
  retryAfterMs: number | null = null,
): FastifyReply {
  const body: { ok: false; error: string; retry_after_seconds?: number } = { ok: false, error };
  if (retryAfterMs !== null) {
    const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
    body.retry_after_seconds = seconds;
    reply.header('retry-after', String(seconds));
  }
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}
