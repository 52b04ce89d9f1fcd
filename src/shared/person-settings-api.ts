import { z } from 'zod/mini';
import { LANGUAGES } from './i18n/languages.js';

/**
 * Each person's own settings (issue 21; the language, issue 34): e-mail, the daily digest, quiet
 * hours, the interface's language. Apart from the inbox's schemas (alert-triage-api.ts): the SPA
 * reads a person's language as it starts, and the inbox's schemas are not its first screen's.
 */

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
