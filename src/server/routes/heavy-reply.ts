import type { FastifyReply } from 'fastify';
import type { Admission } from '../store-question-limit.js';

/**
 * Heavy work of one request (issue 29: the chain's verification, a backtest, an import) under
 * its client's turn: `admission` is the history questions' limiter (store-question-limit.ts),
 * so these routes share one budget per client, one process-wide bound on answers built at once
 * and one bounded queue with the history routes. A refusal is a 429 or 503 with Retry-After,
 * decided before any work. `cost` is charged as characters (one unit per started 64 KB).
 */
export async function heavyReply<T>(
  reply: FastifyReply,
  admission: Promise<Admission> | null,
  work: () => Promise<T>,
  cost: (answer: T) => number = () => 0,
): Promise<T | FastifyReply> {
  let admitted: Admission | null = null;
  let chars = 0;
  try {
    admitted = admission ? await admission : null;
    const answer = await work();
    chars = cost(answer);
    return answer;
  } finally {
    admitted?.done(chars);
  }
}
