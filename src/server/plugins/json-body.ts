import type { FastifyInstance } from 'fastify';

/**
 * JSON bodies must be UTF-8 (RFC 8259): Fastify's own parser decodes bytes leniently, so a name
 * sent with invalid bytes was stored with U+FFFD in their place, which is not what was sent.
 * Refused with a 400 instead; everything else (prototype poisoning refused, empty bodies, size
 * limit) is Fastify's default parser.
 */
export function installStrictJson(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = utf8.decode(body as Buffer);
    } catch {
      const error = new Error('The body is not valid UTF-8 text') as Error & { statusCode: number };
      error.statusCode = 400;
      done(error, undefined);
      return;
    }
    parse(request, text, done);
  });
}
