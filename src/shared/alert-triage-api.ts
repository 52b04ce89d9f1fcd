import { z } from 'zod/mini';
import { cursorPageShape } from './schemas/common.js';
import { alertSchema } from './alerts-api.js';
import { LANGUAGES } from './i18n/languages.js';
import { userTextProblem } from './user-text.js';

/**
 * Alerts a team works through (issue 21): acknowledgements with a disposition, the inbox's
 * filters, and each person's delivery settings. Shared by the BFF (which validates with them)
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

/** `HH:MM`, 24-hour clock. */
const clockTime = z
  .string({ error: 'quiet hours are times such as "22:00"' })
  .check(
    z.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'quiet hours are times such as "22:00" (00:00 to 23:59)'),
  );

/** Whether the runtime knows `zone` as an IANA time zone (e.g. Europe/Berlin). */
export function isTimeZone(zone: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** `PUT /api/me/settings`: a person's own delivery settings (the whole of them). */
export const personSettingsInputSchema = z.strictObject({
  email_enabled: z.boolean({ error: 'email_enabled must be true or false' }),
  /** Local hour of the daily digest (0–23), or null for none. */
  digest_hour: z.nullable(
    z
      .number({ error: 'digest_hour must be an hour from 0 to 23, or null' })
      .check(
        z.int('digest_hour must be a whole hour from 0 to 23'),
        z.gte(0, 'digest_hour must be an hour from 0 to 23'),
        z.lte(23, 'digest_hour must be an hour from 0 to 23'),
      ),
  ),
  time_zone: z
    .string({ error: 'time_zone must be an IANA time zone such as "Europe/Berlin"' })
    .check(z.refine(isTimeZone, 'time_zone must be an IANA time zone such as "Europe/Berlin"')),
  quiet_hours: z.nullable(
    z
      .strictObject(
        { start: clockTime, end: clockTime },
        { error: 'quiet_hours must be {"start": "22:00", "end": "07:00"} or null' },
      )
      .check(
        z.refine((q) => q.start !== q.end, 'quiet hours must end at another time than they start'),
      ),
  ),
  /**
   * The interface's language (issue 34); null: the browser's. Left out: kept as saved, so a
   * client that predates the field does not reset it.
   */
  language: z.optional(
    z.nullable(
      z.enum(LANGUAGES, { error: `language must be one of ${LANGUAGES.join(', ')}, or null` }),
    ),
  ),
});
export type PersonSettingsInput = z.infer<typeof personSettingsInputSchema>;

export const personSettingsSchema = z.looseObject({
  email_enabled: z.boolean(),
  digest_hour: z.nullable(z.int()),
  time_zone: z.string(),
  quiet_hours: z.nullable(z.looseObject({ start: z.string(), end: z.string() })),
  /** Where e-mail goes: the address of the sign-in (null: none known, nothing is sent). */
  email: z.nullable(z.string()),
  /** The interface's language; null: the browser's. */
  language: z.catch(z.nullable(z.enum(LANGUAGES)), null),
  /** Increases with every save; the ETag is `"<version>"` (0: never saved, the defaults). */
  version: z.int(),
});
export type PersonSettings = z.infer<typeof personSettingsSchema>;

export const personSettingsResponseSchema = z.looseObject({
  ok: z.literal(true),
  settings: personSettingsSchema,
});
