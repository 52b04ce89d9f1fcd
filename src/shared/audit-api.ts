import { z } from 'zod/mini';
import { cursorPageShape } from './schemas/common.js';

/** One entry of `GET /api/audit` (issue 21): who did what to what, when, from where. */
export const auditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  who: z.object({
    name: z.string(),
    email: z.nullable(z.string()),
    subject: z.nullable(z.string()),
    via: z.string(),
    role: z.nullable(z.string()),
  }),
  address: z.nullable(z.string()),
  action: z.string(),
  object: z.nullable(z.string()),
  status: z.number(),
  detail: z.nullable(z.string()),
  before: z.unknown(),
  after: z.unknown(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditPageSchema = z.object({
  ...cursorPageShape,
  entries: z.array(auditEntrySchema),
});

/** The filters `/api/audit` and `/api/spreadsheet/audit.csv` share (the page's URL holds them). */
export const AUDIT_FILTERS = ['who', 'action', 'object', 'since', 'until'] as const;
export type AuditFilters = Partial<Record<(typeof AUDIT_FILTERS)[number], string>>;

/** `GET /api/sessions`: `id` is an opaque handle, never the session's cookie. */
export const sessionListSchema = z.object({
  ok: z.literal(true),
  sessions: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      email: z.nullable(z.string()),
      role: z.string(),
      via: z.string(),
      address: z.nullable(z.string()),
      created_at: z.string(),
      last_seen_at: z.string(),
      expires_at: z.string(),
    }),
  ),
});
export type SessionListed = z.infer<typeof sessionListSchema>['sessions'][number];
