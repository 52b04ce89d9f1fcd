import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { installErrorHandlers } from '../../src/server/plugins/errors.js';

/*
 * A query that waited out a busy connection pool is not a database that is down: the answer says
 * "busy" and asks for a few seconds, where an unreachable PostgreSQL asks for a minute.
 */
async function answerTo(error: Error) {
  const app = Fastify();
  installErrorHandlers(app, false);
  app.get('/api/history/global', async () => {
    throw error;
  });
  const reply = await app.inject({ method: 'GET', url: '/api/history/global' });
  await app.close();
  return reply;
}

describe('store failures in the error answer', () => {
  it('a busy pool is a 503 that says busy, with a short Retry-After', async () => {
    const reply = await answerTo(new Error('timeout exceeded when trying to connect'));
    expect(reply.statusCode).toBe(503);
    expect(reply.json().error).toMatch(/busy/);
    expect(reply.headers['retry-after']).toBe('5');
  });

  it('an unreachable server is still said to be unreachable', async () => {
    const error = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
      code: 'ECONNREFUSED',
    });
    const reply = await answerTo(error);
    expect(reply.statusCode).toBe(503);
    expect(reply.json().error).toMatch(/cannot be reached/);
  });
});
