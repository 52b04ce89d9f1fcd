import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  memoisedQueryRoute,
  optional,
  queryOf,
  zodRoute,
} from '../../src/server/routes/route-schema.js';

// The route schemas' own rules; the routes' 400 tables are in validation.test.ts and friends.
describe('zod route schemas', () => {
  it('answers a memoised query without parsing it again, and refuses repeats unmemoised', async () => {
    let parses = 0;
    const query = queryOf({ limit: optional }).transform((q) => {
      parses += 1;
      return { limit: Number(q.limit ?? 20) };
    });
    const app = Fastify();
    app.get('/q', memoisedQueryRoute({ querystring: query }, 2), (request) => request.query);
    expect((await app.inject('/q?limit=5')).json()).toEqual({ limit: 5 });
    expect((await app.inject('/q?limit=5')).json()).toEqual({ limit: 5 });
    expect(parses).toBe(1);
    await app.inject('/q?limit=6');
    await app.inject('/q?limit=7');
    await app.inject('/q?limit=5'); // evicted by the bound of 2: parsed again
    expect(parses).toBe(4);
    const repeated = await app.inject('/q?limit=5&limit=5');
    expect(repeated.statusCode).toBe(400);
    expect(repeated.json()).toMatchObject({
      message: 'Query parameter limit was given more than once',
    });
  });

  it('never passes zod wording on: a problem without our message names the parameter', async () => {
    const app = Fastify();
    const schema = z.object({ n: z.string().regex(/^\d+$/) });
    app.get('/p/:n', zodRoute({ params: schema }), () => 'ok');
    const response = await app.inject('/p/abc');
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('n is not valid here');
  });
});
