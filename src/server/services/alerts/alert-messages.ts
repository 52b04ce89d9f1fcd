import type { Alert, WebhookFormat } from '../../../shared/alerts-api.js';
import { withoutBidi } from '../../../shared/user-text.js';
import { directionOf, type Language } from '../../../shared/i18n/languages.js';
import {
  alertSentence,
  countryIn,
  moreLine,
  outputsIn,
  siteLine,
  type AlertSites,
  type Outputs,
} from './alert-words.js';
import { teamsAlertBody, teamsTestBody } from './teams-card.js';

/**
 * What goes out for alerts: the webhook body in each format of `WEBHOOK_FORMAT_OPTIONS` (the
 * documented JSON payload, Slack's `{text}`, a Teams card), and one e-mail digest per batch and
 * list. Bodies are built once, stored in the outbox and sent byte for byte on every retry (the
 * signature covers them).
 */

export const WEBHOOK_EVENT_TYPE = 'alert.created';

export type { AlertSite, AlertSites } from './alert-words.js';

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
  button = 'Open the country page',
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
          text: { type: 'plain_text', text: button },
          url: link,
        },
      ],
    });
  }
  return JSON.stringify({ text, blocks });
}

/** "watchlist “X”, batch …" (with its id when it has one), so a message cites that batch. */
function listContext(o: Outputs, list: string, asOf: string, batchId: string | null): string {
  const batch = o.time(asOf);
  return batchId
    ? o.t('alert.contextWithId', { list, batch, id: batchId })
    : o.t('alert.context', { list, batch });
}

/** What one alert's message needs beyond the alert itself. */
interface AlertContext {
  alert: Alert;
  previousAsOf: string | null;
  batchId: string | null;
  sites: AlertSites | null;
  /** The list's language: its words; the JSON keys, codes, scores and ISO times stay. */
  o: Outputs;
}

/**
 * One body builder per format: a `Record` over the shared list, so a format added to
 * `WEBHOOK_FORMAT_OPTIONS` does not compile until it has its own body here (no silent fallback).
 */
const ALERT_BODIES: Record<WebhookFormat, (context: AlertContext) => string> = {
  standard: ({ alert, previousAsOf, batchId, sites, o }) =>
    JSON.stringify({
      type: WEBHOOK_EVENT_TYPE,
      timestamp: alert.created_at,
      data: {
        alert: {
          id: alert.id,
          rule: alert.rule,
          kind: alert.kind,
          message: alertSentence(alert, o),
          link: alert.link,
        },
        watchlist: { id: alert.watchlist_id, name: alert.watchlist_name },
        country: {
          iso: alert.iso,
          name: countryIn(alert, o),
          before: alert.before,
          after: alert.after,
        },
        ...(o.language === 'en' ? {} : { language: o.language }),
        batch: { as_of: alert.batch_as_of, previous_as_of: previousAsOf, id: batchId },
        ...(sites ? { sites } : {}),
      },
    }),
  slack: ({ alert, batchId, o }) =>
    slackMessage(
      `${countryIn(alert, o)} (${alert.iso})`,
      alertSentence(alert, o),
      listContext(o, alert.watchlist_name, alert.batch_as_of, batchId),
      alert.link,
      o.t('alert.openCountryPage'),
    ),
  teams: ({ alert, o }) => teamsAlertBody(alert, o),
};

export function webhookBody(
  alert: Alert,
  format: WebhookFormat,
  previousAsOf: string | null,
  /** The batch's citable id (GET /api/batches/:id); null when it has none. */
  batchId: string | null = null,
  /** A site alert's sites: `data.sites` in the JSON payload. */
  sites: AlertSites | null = null,
  /** The list's language (issue 34). */
  language: Language = 'en',
): string {
  return ALERT_BODIES[format]({ alert, previousAsOf, batchId, sites, o: outputsIn(language) });
}

/** A site alert's sites as a nested HTML list (empty for other alerts). */
function siteItems(sites: AlertSites | null, o: Outputs): string {
  if (!sites) return '';
  const lines = siteLines(sites, o);
  return `<ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`;
}

/** A site alert's listed sites and the "and n more" line, in words. */
function siteLines(sites: AlertSites, o: Outputs): string[] {
  const lines = [...sites.listed.map((site) => siteLine(site, o)), moreLine(sites, o)];
  return lines.flatMap((l) => (l ? [l] : []));
}

type TestList = { id: string; name: string };

/** A test message for "send test" in each format: the same shape, marked as a test. */
const TEST_BODIES: Record<WebhookFormat, (watchlist: TestList, at: Date, o: Outputs) => string> = {
  standard: (watchlist, at, o) =>
    JSON.stringify({
      type: 'test',
      timestamp: at.toISOString(),
      data: { watchlist, message: o.t('alert.testTitle') },
    }),
  slack: (watchlist, _at, o) =>
    slackMessage(
      o.t('alert.testTitle'),
      o.t('alert.testText', { list: watchlist.name }),
      o.t('alert.testContext', { list: watchlist.name }),
      null,
    ),
  teams: (watchlist, _at, o) => teamsTestBody(watchlist.name, o),
};

export function testWebhookBody(
  format: WebhookFormat,
  watchlist: TestList,
  at: Date,
  /** The list's language (issue 34). */
  language: Language = 'en',
): string {
  return TEST_BODIES[format](watchlist, at, outputsIn(language));
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
  /** The list's language (issue 34). */
  language: Language = 'en',
): Mail {
  const o = outputsIn(language);
  const batch = o.time(batchAsOf);
  const subject = headerLine(
    o.t('alert.mailSubject', { count: alerts.length, list: listName, batch }),
  );
  const intro = batchId
    ? o.t('alert.mailIntroWithId', { list: listName, batch, id: batchId })
    : o.t('alert.mailIntro', { list: listName, batch });
  const lines = alerts.map((a) => {
    const sites = sitesOf(a);
    const listed = sites ? siteLines(sites, o).map((l) => `  * ${l}`) : [];
    const head = `- ${countryIn(a, o)} (${a.iso}): ${alertSentence(a, o)}`;
    return [head, ...listed, `  ${a.link}`].join('\n');
  });
  const signature = o.t('alert.signature');
  const text = withoutBidi([intro, '', ...lines, '', signature].join('\n'));
  const items = alerts
    .map(
      (a) =>
        `<li><strong>${escapeHtml(countryIn(a, o))} (${escapeHtml(a.iso)})</strong>: ` +
        `${escapeHtml(alertSentence(a, o))} ` +
        `<a href="${escapeHtml(a.link)}">${escapeHtml(o.t('alert.countryPage'))}</a>` +
        `${siteItems(sitesOf(a), o)}</li>`,
    )
    .join('');
  const html =
    `<!doctype html><html lang="${o.language}" dir="${directionOf(o.language)}"><body>` +
    `<h1>${escapeHtml(subject)}</h1><p>${escapeHtml(intro)}</p>` +
    `<ul>${items}</ul><p>${escapeHtml(signature)}</p></body></html>`;
  return { subject, text, html };
}
