import type { Alert, WebhookFormat } from '../../../shared/alerts-api.js';
import { withoutBidi } from '../../../shared/user-text.js';
import { teamsAlertBody, teamsTestBody } from './teams-card.js';

/**
 * What goes out for alerts: the webhook body in each format of `WEBHOOK_FORMAT_OPTIONS` (the
 * documented JSON payload, Slack's `{text}`, a Teams card), and one e-mail digest per batch and
 * list. Bodies are built once, stored in the outbox and sent byte for byte on every retry (the
 * signature covers them).
 */

export const WEBHOOK_EVENT_TYPE = 'alert.created';

/** A site a site alert names, as its payloads carry it (issue 20). */
export interface AlertSite {
  id: number;
  ref: string;
  name: string;
  people: number | null;
  /** The site's own country. */
  iso: string;
  /** From the site to the shape of the country that moved (0: the site's own). */
  distance_km: number;
}

/** The sites behind a site alert: every one counted, the first `listed` named (most people first). */
export interface AlertSites {
  count: number;
  people: number;
  listed: AlertSite[];
  /** Sites counted but not listed (the list is bounded). */
  more: number;
}

/**
 * Slack reads `<…>` as links and mentions (`<!channel>`, `<https://x|text>`) and `&` as the start
 * of an entity: every value put in its mrkdwn is escaped as Slack's "Escaping text" asks (&, <, >),
 * so a list name or an upstream headline can neither ping a channel nor hide a link.
 */
export function slackText(value: string): string {
  return withoutBidi(value).replace(/[&<>]/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;',
  );
}

/**
 * One line for a mail header: CR, LF and other control characters become spaces, so no value
 * (a list name stored before names were checked) can end the Subject and start another header.
 */
export function headerLine(value: string): string {
  return withoutBidi(value).replace(/[\p{Cc}\u2028\u2029]+/gu, ' ');
}

/**
 * Slack's published Block Kit limits (Block Kit reference, "Blocks" and "Composition objects"):
 * at most 50 blocks a message, a section's text at most 3,000 characters, a button's text 75 and
 * its URL 3,000; the top-level `text` (the notification and the fallback of Slack-compatible
 * receivers) at most 40,000, of which Slack shows 4,000: ours is kept within 3,000.
 */
export const SLACK_LIMITS = { sectionText: 3000, fallbackText: 3000, buttonText: 75, url: 3000 };

/**
 * `value` as mrkdwn (escaped) in at most `max` characters: cut before the character that would
 * not fit, with an ellipsis; an escape (`&amp;`) is never split.
 */
export function slackTextWithin(value: string, max: number): string {
  const whole = slackText(value);
  if (whole.length <= max) return whole;
  let out = '';
  for (const char of withoutBidi(value)) {
    const piece = slackText(char);
    if (out.length + piece.length > max - 1) break;
    out += piece;
  }
  return `${out}…`;
}

/** A Slack message: the sentence as `text` (bounded), and as blocks within Block Kit's limits. */
function slackMessage(
  title: string,
  sentence: string,
  context: string,
  link: string | null,
): string {
  const head = `*${slackText(title)}*`;
  const tail = ` (${slackText(context)})`;
  const room = SLACK_LIMITS.fallbackText - head.length - tail.length - 2;
  const text = `${head}: ${slackTextWithin(sentence, room)}${tail}`;
  const section = `${head}\n${slackTextWithin(sentence, SLACK_LIMITS.sectionText - head.length - 1)}`;
  const blocks: object[] = [
    { type: 'section', text: { type: 'mrkdwn', text: section } },
    {
      type: 'context',
      elements: [{ type: 'mrkdwn', text: slackTextWithin(context, SLACK_LIMITS.sectionText) }],
    },
  ];
  // Slack opens absolute links only: without ALERT_LINK_BASE_URL there is no button.
  if (link !== null && /^https?:\/\//.test(link) && link.length <= SLACK_LIMITS.url) {
    blocks.push({
      type: 'actions',
      elements: [
        {
          type: 'button',
          text: { type: 'plain_text', text: 'Open the country page' },
          url: link,
        },
      ],
    });
  }
  return JSON.stringify({ text, blocks });
}

/** " (batch id …)" after a batch's time, so a message cites exactly that batch. */
const citedId = (batchId: string | null): string => (batchId ? `, batch id ${batchId}` : '');

/** What one alert's message needs beyond the alert itself. */
interface AlertContext {
  alert: Alert;
  previousAsOf: string | null;
  batchId: string | null;
  sites: AlertSites | null;
}

/**
 * One body builder per format: a `Record` over the shared list, so a format added to
 * `WEBHOOK_FORMAT_OPTIONS` does not compile until it has its own body here (no silent fallback).
 */
const ALERT_BODIES: Record<WebhookFormat, (context: AlertContext) => string> = {
  standard: ({ alert, previousAsOf, batchId, sites }) =>
    JSON.stringify({
      type: WEBHOOK_EVENT_TYPE,
      timestamp: alert.created_at,
      data: {
        alert: {
          id: alert.id,
          rule: alert.rule,
          kind: alert.kind,
          message: alert.message,
          link: alert.link,
        },
        watchlist: { id: alert.watchlist_id, name: alert.watchlist_name },
        country: { iso: alert.iso, name: alert.country, before: alert.before, after: alert.after },
        batch: { as_of: alert.batch_as_of, previous_as_of: previousAsOf, id: batchId },
        ...(sites ? { sites } : {}),
      },
    }),
  slack: ({ alert, batchId }) =>
    slackMessage(
      `${alert.country} (${alert.iso})`,
      alert.message,
      `watchlist “${alert.watchlist_name}”, batch ${alert.batch_as_of}${citedId(batchId)}`,
      alert.link,
    ),
  teams: ({ alert }) => teamsAlertBody(alert),
};

export function webhookBody(
  alert: Alert,
  format: WebhookFormat,
  previousAsOf: string | null,
  /** The batch's citable id (GET /api/batches/:id); null when it has none. */
  batchId: string | null = null,
  /** A site alert's sites: `data.sites` in the JSON payload. */
  sites: AlertSites | null = null,
): string {
  return ALERT_BODIES[format]({ alert, previousAsOf, batchId, sites });
}

const km = (value: number): string => `${Math.round(value).toLocaleString('en-US')} km`;

/** One listed site in words: "Lublin warehouse (ref L-1, site 7), 35 people, POL, 80 km". */
function siteLine(site: AlertSite): string {
  const people = site.people === null ? '' : `, ${site.people.toLocaleString('en-US')} people`;
  return `${site.name} (ref ${site.ref}, site ${site.id})${people}, ${site.iso}, ${km(site.distance_km)}`;
}

function moreLine(sites: AlertSites): string | null {
  if (sites.more <= 0) return null;
  return `and ${sites.more.toLocaleString('en-US')} more site${sites.more === 1 ? '' : 's'}`;
}

/** A site alert's sites as a nested HTML list (empty for other alerts). */
function siteItems(sites: AlertSites | null): string {
  if (!sites) return '';
  const lines = [...sites.listed.map(siteLine), moreLine(sites)].flatMap((l) => (l ? [l] : []));
  return `<ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`;
}

type TestList = { id: string; name: string };

/** A test message for "send test" in each format: the same shape, marked as a test. */
const TEST_BODIES: Record<WebhookFormat, (watchlist: TestList, at: Date) => string> = {
  standard: (watchlist, at) =>
    JSON.stringify({
      type: 'test',
      timestamp: at.toISOString(),
      data: { watchlist, message: 'Test message from the Global Risk Dashboard' },
    }),
  slack: (watchlist) =>
    slackMessage(
      'Test message from the Global Risk Dashboard',
      `Alerts of the watchlist “${watchlist.name}” will arrive here.`,
      `watchlist “${watchlist.name}”`,
      null,
    ),
  teams: (watchlist) => teamsTestBody(watchlist.name),
};

export function testWebhookBody(format: WebhookFormat, watchlist: TestList, at: Date): string {
  return TEST_BODIES[format](watchlist, at);
}

export interface Mail {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (value: string): string =>
  withoutBidi(value).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** One digest for one list and one batch: every alert of it, plain text and HTML. */
export function digestMail(
  listName: string,
  batchAsOf: string,
  alerts: Alert[],
  /** The batch's citable id (GET /api/batches/:id); null when it has none. */
  batchId: string | null = null,
  /** A site alert's sites, listed under it. */
  sitesOf: (alert: Alert) => AlertSites | null = () => null,
): Mail {
  const subject = headerLine(
    `${alerts.length} alert${alerts.length === 1 ? '' : 's'} for "${listName}" (batch ${batchAsOf})`,
  );
  const lines = alerts.map((a) => {
    const sites = sitesOf(a);
    const listed = sites
      ? [...sites.listed.map(siteLine), moreLine(sites)].flatMap((l) => (l ? [`  * ${l}`] : []))
      : [];
    return [`- ${a.country} (${a.iso}): ${a.message}`, ...listed, `  ${a.link}`].join('\n');
  });
  const text = withoutBidi(
    [
      `Watchlist “${listName}”, batch of ${batchAsOf}${citedId(batchId)}:`,
      '',
      ...lines,
      '',
      'Global Risk Dashboard',
    ].join('\n'),
  );
  const items = alerts
    .map(
      (a) =>
        `<li><strong>${escapeHtml(a.country)} (${escapeHtml(a.iso)})</strong>: ${escapeHtml(a.message)} ` +
        `<a href="${escapeHtml(a.link)}">country page</a>${siteItems(sitesOf(a))}</li>`,
    )
    .join('');
  const html =
    `<!doctype html><html><body><h1>${escapeHtml(subject)}</h1>` +
    `<p>Watchlist “${escapeHtml(listName)}”, batch of ${escapeHtml(batchAsOf)}${escapeHtml(citedId(batchId))}:</p>` +
    `<ul>${items}</ul><p>Global Risk Dashboard</p></body></html>`;
  return { subject, text, html };
}
