import type { Alert, WebhookFormat } from '../../../shared/alerts-api.js';
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
  return value.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

/**
 * One line for a mail header: CR, LF and other control characters become spaces, so no value
 * (a list name stored before names were checked) can end the Subject and start another header.
 */
export function headerLine(value: string): string {
  return value.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ');
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
    JSON.stringify({
      text: `*${slackText(alert.country)} (${slackText(alert.iso)})*: ${slackText(alert.message)} (watchlist “${slackText(alert.watchlist_name)}”, batch ${slackText(alert.batch_as_of)}${citedId(batchId)})`,
    }),
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
    JSON.stringify({
      text: `Test message from the Global Risk Dashboard for watchlist “${slackText(watchlist.name)}”.`,
    }),
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
  value.replace(
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
  const text = [
    `Watchlist “${listName}”, batch of ${batchAsOf}${citedId(batchId)}:`,
    '',
    ...lines,
    '',
    'Global Risk Dashboard',
  ].join('\n');
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
