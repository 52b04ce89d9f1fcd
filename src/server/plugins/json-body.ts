import type { FastifyInstance } from 'fastify';
import { inputTextProblem } from '../../shared/user-text.js';

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
    parse(request, text, (error, value) => {
      if (error) return done(error, undefined);
      const problem = bodyTextProblem(value, '');
      if (problem === null) return done(null, value);
      const refused = new Error(problem) as Error & { statusCode: number };
      refused.statusCode = 400;
      done(refused, undefined);
    });
  });
}

/**
 * The one text rule (shared/user-text.ts) over every string of a JSON body and every key, tabs
 * and line breaks allowed: a NUL in `webhook_url` reached PostgreSQL, which refuses it (a 500).
 * The field is named by its path (`rules.0.kind`); iterative, so a deep body cannot overflow.
 */
function bodyTextProblem(value: unknown, path: string): string | null {
  const stack: Array<[unknown, string]> = [[value, path]];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [node, where] = item;
    if (typeof node === 'string') {
      const problem = inputTextProblem(where || 'the body', node, true);
      if (problem !== null) return problem;
    } else if (node !== null && typeof node === 'object') {
      for (const [key, child] of Object.entries(node)) {
        const at = where ? `${where}.${key}` : key;
        const problem = inputTextProblem(`a field name in ${where || 'the body'}`, key);
        if (problem !== null) return problem;
        stack.push([child, at]);
      }
    }
  }
  return null;
}
