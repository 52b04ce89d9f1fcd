import { bigint, boolean, char, pgTable } from 'drizzle-orm/pg-core';
import { at } from './schema.js';

/*
 * The chain of batch ids (issue 22). One entry per batch with country rows, in the order the
 * batches were recorded (a late batch, e.g. a gap filled after a restart, joins at the end, so
 * no id ever given out changes). No foreign key to `batches` on purpose: a batch deleted by hand
 * leaves its entry behind, and the verification names it as missing.
 */
export const batchChain = pgTable('batch_chain', {
  /** 1, 2, 3 … without gaps: a missing position is a removed entry. */
  position: bigint('position', { mode: 'number' }).primaryKey(),
  batchId: bigint('batch_id', { mode: 'number' }).notNull().unique(),
  asOf: at('as_of').notNull(),
  /** sha-256 hex of `<previous id>\n<canonical content>` (shared/batches-api.ts). */
  digest: char('digest', { length: 64 }).notNull().unique(),
  /** The batch was removed by retention: its digest still links the chain. */
  pruned: boolean('pruned').notNull().default(false),
});
