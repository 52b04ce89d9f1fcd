import { createHash } from 'node:crypto';
import type { Database } from '../../store/connection.js';
import {
  digestExists,
  insertDigest,
  selectAlertsBetween,
  selectDigestPeople,
  type PersonSettingsRow,
} from '../../store/person-settings.js';
import { selectWatchlists } from '../../store/watchlists.js';
import { withoutBidi } from '../../../shared/user-text.js';
import { headerLine } from './alert-messages.js';
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
    const subject = headerLine(
      alerts.length === 0
        ? `Daily digest ${local.day}: no new alerts`
        : `Daily digest ${local.day}: ${alerts.length}${alerts.length === ALERTS_PER_DIGEST ? '+' : ''} alert${alerts.length === 1 ? '' : 's'}`,
    );
    const lines = alerts.map(
      (a) =>
        `- ${a.country} (${a.iso}) · ${names.get(a.watchlistId) ?? ''}: ${a.message}\n  ${countryLink(a.iso, this.linkBase)}`,
    );
    // Upstream headlines and names: no character that reorders the text after it.
    const text = withoutBidi(
      [
        `Alerts of the 24 hours before ${local.day} ${String(person.digestHour).padStart(2, '0')}:00 (${person.timeZone}):`,
        '',
        ...(lines.length > 0 ? lines : ['No new alerts.']),
        '',
        'Global Risk Dashboard · change or stop this digest in your settings',
      ].join('\n'),
    );
    const items = alerts
      .map(
        (a) =>
          `<li><strong>${escapeHtml(a.country)} (${escapeHtml(a.iso)})</strong> · ` +
          `${escapeHtml(names.get(a.watchlistId) ?? '')}: ${escapeHtml(a.message)} ` +
          `<a href="${escapeHtml(countryLink(a.iso, this.linkBase))}">country page</a></li>`,
      )
      .join('');
    const html =
      `<!doctype html><html><body><h1>${escapeHtml(subject)}</h1>` +
      (alerts.length > 0 ? `<ul>${items}</ul>` : '<p>No new alerts.</p>') +
      '<p>Global Risk Dashboard</p></body></html>';
    const key = createHash('sha256').update(`${person.subject}\n${local.day}`).digest('hex');
    return insertDigest(this.db, {
      subject: person.subject,
      day: local.day,
      messageId: `digest_${key.slice(0, 32)}`,
      body: JSON.stringify({ to: person.email, subject, text, html }),
      state: 'pending',
      nextAttemptAt: new Date(now),
      createdAt: new Date(now),
    });
  }
}
