import {
  personSettingsInputSchema,
  type PersonSettings,
} from '../../../shared/person-settings-api.js';
import type { Database } from '../../store/connection.js';
import {
  selectPersonSettings,
  writePersonSettings,
  type PersonSettingsRow,
} from '../../store/person-settings.js';
import { isLanguage } from '../../../shared/i18n/languages.js';
import { clockMinutes, minutesClock } from './local-time.js';
import { ApiProblem } from './watchlists.js';

/** Who saves settings: the person, and the address their sign-in gave (if any). */
export interface SettingsOwner {
  subject: string | null;
  email: string | null;
}

const DEFAULTS = {
  email_enabled: true,
  digest_hour: null,
  time_zone: 'UTC',
  quiet_hours: null,
  language: null,
  version: 0,
};

export function settingsView(row: PersonSettingsRow | null, email: string | null): PersonSettings {
  if (row === null) return { ...DEFAULTS, email };
  return {
    email_enabled: row.emailEnabled,
    digest_hour: row.digestHour,
    time_zone: row.timeZone,
    quiet_hours:
      row.quietStart === null || row.quietEnd === null
        ? null
        : { start: minutesClock(row.quietStart), end: minutesClock(row.quietEnd) },
    email: row.email ?? email,
    language: isLanguage(row.language) ? row.language : null,
    version: row.version,
  };
}

/** A person's address: the sign-in's e-mail, else a proxy user name that is an address. */
export function addressOf(owner: SettingsOwner): string | null {
  if (owner.email) return owner.email.slice(0, 254);
  const subject = owner.subject ?? '';
  return /^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{2,}$/.test(subject) ? subject : null;
}

/** `GET/PUT /api/me/settings`: each person's own delivery settings. */
export class PersonSettingsService {
  constructor(
    private readonly db: Database,
    private readonly now: () => number,
  ) {}

  #subject(owner: SettingsOwner): string {
    if (owner.subject === null) {
      throw new ApiProblem(
        400,
        'Delivery settings belong to a signed-in person; the shared token and API tokens have none',
      );
    }
    return owner.subject;
  }

  /** The language setting of `subject` (issue 34): null for nobody signed in, or none saved. */
  async languageOf(subject: string | null): Promise<string | null> {
    if (subject === null) return null;
    return (await selectPersonSettings(this.db, subject))?.language ?? null;
  }

  async get(owner: SettingsOwner): Promise<PersonSettings> {
    const row = await selectPersonSettings(this.db, this.#subject(owner));
    return settingsView(row, addressOf(owner));
  }

  /** Replaces the settings made against `ifMatch` (`"<version>"`; `"0"` before the first save). */
  async put(owner: SettingsOwner, body: unknown, ifMatch: string | undefined) {
    const subject = this.#subject(owner);
    const parsed = personSettingsInputSchema.safeParse(body);
    if (!parsed.success) {
      throw new ApiProblem(400, parsed.error.issues[0]?.message ?? 'Invalid body');
    }
    const current = await selectPersonSettings(this.db, subject);
    let version = current?.version ?? 0;
    if (ifMatch !== undefined) {
      const match = /^(?:W\/)?"(\d{1,9})"$/.exec(ifMatch.trim());
      if (!match) throw new ApiProblem(400, 'If-Match must be the ETag of the settings, e.g. "3"');
      version = Number(match[1]);
      if (version !== (current?.version ?? 0)) {
        throw new ApiProblem(412, 'The settings were changed elsewhere since: reload them first');
      }
    }
    const input = parsed.data;
    const saved = await writePersonSettings(
      this.db,
      {
        subject,
        email: addressOf(owner) ?? current?.email ?? null,
        emailEnabled: input.email_enabled,
        digestHour: input.digest_hour,
        timeZone: input.time_zone,
        quietStart: input.quiet_hours ? clockMinutes(input.quiet_hours.start) : null,
        quietEnd: input.quiet_hours ? clockMinutes(input.quiet_hours.end) : null,
        language: input.language === undefined ? (current?.language ?? null) : input.language,
        updatedAt: new Date(this.now()),
      },
      version,
    );
    if (saved === null) {
      throw new ApiProblem(412, 'The settings were changed elsewhere since: reload them first');
    }
    return settingsView(saved, addressOf(owner));
  }
}
