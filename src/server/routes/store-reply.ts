import type { FastifyReply } from 'fastify';
import type { Admission } from '../store-question-limit.js';
import type { StoreQueryGuard } from '../store-question-limit.js';

/*
 * Answers built from the store (history, batches, as-of views): sent as JSON already built,
 * refusals in words with their status.
 */

/** A file built from the store (a spreadsheet of a past batch) instead of JSON. */
export interface StoreFile {
  body: Buffer;
  contentType: string;
  headers: Record<string, string>;
}

/**
 * Sends the JSON (or the file) `work` builds; a refusal (bad request, not found, store limits)
 * in words.
 */
export async function reply400(
  reply: FastifyReply,
  work: () => Promise<string | StoreFile>,
  admission: Promise<Admission> | null = null,
): Promise<FastifyReply> {
  let admitted: Admission | null = null;
  let chars = 0;
  try {
    admitted = admission ? await admission : null;
    // JSON already: the answers are joined from parts serialised once per batch.
    const built = await work();
    const file: StoreFile =
      typeof built === 'string'
        ? { body: Buffer.from(built), contentType: 'application/json; charset=utf-8', headers: {} }
        : built;
    chars = file.body.length;
    // Answers change with each recorded batch; the SPA polls /api/status to notice one.
    return reply
      .header('cache-control', 'no-cache')
      .headers(file.headers)
      .type(file.contentType)
      .send(file.body);
  } finally {
    // Charged by the answer's size; the next waiting question is woken on the next turn.
    admitted?.done(chars);
  }
}

/** reply400 after the question's turn under its client's budget (store-question-limit.ts). */
export function admittedReply(
  admission: Promise<Admission>,
  reply: FastifyReply,
  work: () => Promise<string>,
): Promise<FastifyReply> {
  return reply400(reply, work, admission);
}

/** Takes the request's store-query guard around `work` (its client's rate, queries in flight). */
export async function guarded<T>(guard: StoreQueryGuard, work: () => Promise<T>): Promise<T> {
  const release = await guard();
  try {
    return await work();
  } finally {
    release();
  }
}
