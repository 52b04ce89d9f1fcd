import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AsOfAnswers } from '../services/history/as-of-answers.js';
import type { Admission } from '../store-question-limit.js';
import type { StoreQueryGuard } from '../store-question-limit.js';
import { checkRetention } from './history-params.js';
import { BadRequest } from './route-schema.js';
import { guarded, reply400, type StoreFile } from './store-reply.js';

/** What the data routes need to answer `?as_of=` from the store (null: no store). */
export interface AsOfRouteParts {
  answers: AsOfAnswers;
  guardFor: (request: FastifyRequest) => StoreQueryGuard;
  /** The question's turn under its client's budget, as every history question's. */
  admit: (request: FastifyRequest) => Promise<Admission>;
  /** The oldest time the store still holds under HISTORY_RETENTION_DAYS (null: everything). */
  retentionStart: () => Date | null;
}

/**
 * Answers a data route's `?as_of=` from the store alone (never the upstream): refused in words
 * without a store, or before the history kept.
 */
export function replyAsOf(
  request: FastifyRequest,
  reply: FastifyReply,
  parts: AsOfRouteParts | null | undefined,
  at: Date,
  work: (answers: AsOfAnswers) => Promise<object>,
): Promise<FastifyReply> {
  return replyAsOfBuilt(request, reply, parts, at, async (answers) =>
    JSON.stringify(await work(answers)),
  );
}

/** replyAsOf for a file (the spreadsheet of a past batch): the same refusals and limits. */
export function replyAsOfFile(
  request: FastifyRequest,
  reply: FastifyReply,
  parts: AsOfRouteParts | null | undefined,
  at: Date,
  work: (answers: AsOfAnswers) => Promise<StoreFile>,
): Promise<FastifyReply> {
  return replyAsOfBuilt(request, reply, parts, at, work);
}

function replyAsOfBuilt(
  request: FastifyRequest,
  reply: FastifyReply,
  parts: AsOfRouteParts | null | undefined,
  at: Date,
  work: (answers: AsOfAnswers) => Promise<string | StoreFile>,
): Promise<FastifyReply> {
  return reply400(
    reply,
    async () => {
      if (!parts) {
        throw new BadRequest('as_of needs the history store, and this server keeps no history');
      }
      checkRetention({ from: at, to: null }, parts.retentionStart());
      return guarded(parts.guardFor(request), () => work(parts.answers));
    },
    parts ? parts.admit(request) : null,
  );
}
