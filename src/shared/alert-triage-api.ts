import { z } from 'zod/mini';
import { cursorPageShape } from './schemas/common.js';
import { alertSchema } from './alerts-api.js';
import { userTextProblem } from './user-text.js';

/**
 * Alerts a team works through (issue 21): acknowledgements with a disposition and the inbox's
 * filters (each person's delivery settings: person-settings-api.ts). Shared by the BFF (which validates with them)
 * and the SPA.
 */

/** What an acknowledgement may say the alert was, each with its label, in the order offered. */
export const DISPOSITION_LABELS = {
  no_impact: 'No impact',
  some_impact: 'Some impact',
  significant_impact: 'Significant impact',
  duplicate: 'Duplicate',
  false_positive: 'False positive',
} as const;
export type Disposition = keyof typeof DISPOSITION_LABELS;
export const DISPOSITIONS = Object.keys(DISPOSITION_LABELS) as readonly Disposition[];

export const ACK_NOTE_MAX = 1000;
/** Acknowledgements kept per alert (each change is one): bounds the history an alert carries. */
export const ACKS_PER_ALERT_MAX = 50;

/** `POST /api/alerts/:id/acknowledgement`. */
export const acknowledgeInputSchema = z.strictObject({
  disposition: z.enum(DISPOSITIONS, {
    error: `disposition must be one of ${DISPOSITIONS.map((d) => `"${d}"`).join(', ')}`,
  }),
  note: z.optional(
    z.string({ error: 'note must be text' }).check(
      z.trim(),
      z.maxLength(ACK_NOTE_MAX, `note must be at most ${ACK_NOTE_MAX} characters`),
      z.superRefine((note, ctx) => {
        // Line breaks are part of a note; every other control or invisible character is refused.
        const problem = userTextProblem('note', note.replace(/\r?\n/g, ' '));
        if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
      }),
    ),
  ),
  /**
   * The revision of the acknowledgement this one changes (absent: the alert has none yet), so
   * two people deciding at once never overwrite each other unseen.
   */
  replaces: z.optional(
    z
      .number({ error: 'replaces must be the revision of the acknowledgement shown' })
      .check(z.int('replaces must be a whole number'), z.gte(1, 'replaces must be at least 1')),
  ),
});
export type AcknowledgeInput = z.infer<typeof acknowledgeInputSchema>;

export const acknowledgementSchema = z.looseObject({
  disposition: z.enum(DISPOSITIONS),
  note: z.nullable(z.string()),
  /** Who: the person's name (or the token's). */
  by: z.string(),
  at: z.string(),
  /** 1 for the first acknowledgement of an alert, +1 for each change. */
  revision: z.int(),
});
export type Acknowledgement = z.infer<typeof acknowledgementSchema>;

/** An alert as the inbox shows it: read state is the asking person's, the acknowledgement the team's. */
export const triagedAlertSchema = z.extend(alertSchema, {
  acknowledgement: z.nullable(acknowledgementSchema),
});
export type TriagedAlert = z.infer<typeof triagedAlertSchema>;

export const triagedAlertListSchema = z.looseObject({
  ...cursorPageShape,
  alerts: z.array(triagedAlertSchema),
  unread: z.int(),
});

export const acknowledgeResponseSchema = z.looseObject({
  ok: z.literal(true),
  alert: triagedAlertSchema,
});

export const acknowledgementHistorySchema = z.looseObject({
  ok: z.literal(true),
  acknowledgements: z.array(acknowledgementSchema),
});

/** The inbox's `state` filter. */
export const INBOX_STATES = ['unread', 'unacknowledged', 'acknowledged'] as const;
export type InboxState = (typeof INBOX_STATES)[number];
