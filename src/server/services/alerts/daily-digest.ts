import { createHash } from 'node:crypto';
import type { Database } from '../../store/connection.js';
import {
  digestExists,
  insertDigest,
  selectAlertsBetween,
  selectDigestPeople,
  type DigestAlert,
  type PersonSettingsRow,
} from '../../store/person-settings.js';
import { selectWatchlists } from '../../store/watchlists.js';
import { withoutBidi } from '../../../shared/user-text.js';
import { headerLine, type Mail } from './alert-messages.js';
import { alertSentence, countryIn, outputsIn } from './alert-words.js';
import { countryLink } from './alert-views.js';
import { localClock } from './local-time.js';
import { DAY_MS } from '../../../shared/durations.js';

// People read a page at a time, and a digest lists at most this many alerts (with the count).
const PEOPLE_PER_PAGE = 100;
const ALERTS_PER_DIGEST = 200;

const escapeHtml = (value: string): string =>
  withoutBidi(value).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/**
 * Each person's daily digest (issue 21): at their chosen hour in their own time zone, the alerts
 * of the day before that moment on every list they can see. Built by the leader's outbox run;
 * queued once per person and local day (a unique key in the store), whichever process or pass
 * gets there first. A day the leader was down past midnight is not built afterwards.
 */
export class DailyDigests {
  constructor(
    private readonly db: Database,
    private readonly linkBase: string | null,
  ) {}

  /** Queues every digest that is due at `now`; how many were queued. */
  async queueDue(now: number): Promise<number> {
    let queued = 0;
    let after = '';
    for (;;) {
      const people = await selectDigestPeople(this.db, after, PEOPLE_PER_PAGE);
      for (const person of people) {
        if (await this.#queue(person, now)) queued += 1;
      }
      const last = people[people.length - 1];
      if (!last || people.length < PEOPLE_PER_PAGE) return queued;
      after = last.subject;
    }
  }

  async #queue(person: PersonSettingsRow, now: number): Promise<boolean> {
    if (person.digestHour === null || person.email === null) return false;
    // The day and hour are the person's own, never UTC's: one digest per day as they live it.
    const local = localClock(now, person.timeZone);
    if (local.minutes < person.digestHour * 60) return false;
    // A shortcut only (nothing built twice per pass); the store's unique key is the guarantee.
    if (await digestExists(this.db, person.subject, local.day)) return false;
    const lists = await selectWatchlists(this.db, person.subject);
    const names = new Map(lists.map((l) => [l.id, l.name]));
    const alerts = await selectAlertsBetween(
      this.db,
      lists.map((l) => l.id),
      new Date(now - DAY_MS),
      new Date(now),
      ALERTS_PER_DIGEST,
    );
    const mail = digestMail(person, local.day, alerts, names, this.linkBase);
    const key = createHash('sha256').update(`${person.subject}\n${local.day}`).digest('hex');
    return insertDigest(this.db, {
      subject: person.subject,
      day: local.day,
      messageId: `digest_${key.slice(0, 32)}`,
      body: JSON.stringify({ to: person.email, ...mail }),
      state: 'pending',
      nextAttemptAt: new Date(now),
      createdAt: new Date(now),
    });
  }
}

/**
 * One person's digest in their language setting (issue 34; none saved: English): the words from
 * the outputs catalogue, the day through Intl, country names from CLDR; codes and links stay.
 */
function digestMail(
  person: PersonSettingsRow,
  day: string,
  alerts: DigestAlert[],
  names: ReadonlyMap<number, string>,
  linkBase: string | null,
): Mail {
  const o = outputsIn(person.language);
  const shownDay = o.day(day);
  const full = alerts.length === ALERTS_PER_DIGEST ? '+' : '';
  const subject = headerLine(
    alerts.length === 0
      ? o.t('digest.subjectNone', { day: shownDay })
      : o.t('digest.subject', {
          day: shownDay,
          count: alerts.length,
          shown: `${o.number(alerts.length)}${full}`,
        }),
  );
  const sentence = (a: DigestAlert) => alertSentence(a, o);
  const country = (a: DigestAlert) => countryIn(a, o);
  const lines = alerts.map(
    (a) =>
      `- ${country(a)} (${a.iso}) · ${names.get(a.watchlistId) ?? ''}: ${sentence(a)}\n  ${countryLink(a.iso, linkBase)}`,
  );
  const hour = `${String(person.digestHour ?? 0).padStart(2, '0')}:00`;
  const none = o.t('digest.none');
  // Upstream headlines and names: no character that reorders the text after it.
  const text = withoutBidi(
    [
      o.t('digest.intro', { day: shownDay, hour, zone: person.timeZone }),
      '',
      ...(lines.length > 0 ? lines : [none]),
      '',
      o.t('digest.footer'),
    ].join('\n'),
  );
  const items = alerts
    .map(
      (a) =>
        `<li><strong>${escapeHtml(country(a))} (${escapeHtml(a.iso)})</strong> · ` +
        `${escapeHtml(names.get(a.watchlistId) ?? '')}: ${escapeHtml(sentence(a))} ` +
        `<a href="${escapeHtml(countryLink(a.iso, linkBase))}">${escapeHtml(o.t('alert.countryPage'))}</a></li>`,
    )
    .join('');
  const html =
    `<!doctype html><html><body><h1>${escapeHtml(subject)}</h1>` +
    (alerts.length > 0 ? `<ul>${items}</ul>` : `<p>${escapeHtml(none)}</p>`) +
    `<p>${escapeHtml(o.t('alert.signature'))}</p></body></html>`;
  return { subject, text, html };
}
