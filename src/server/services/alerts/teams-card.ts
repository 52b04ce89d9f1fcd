import type { Alert } from '../../../shared/alerts-api.js';
import { directionOf } from '../../../shared/i18n/languages.js';
import { withoutBidi } from '../../../shared/user-text.js';
import { alertSentence, countryIn, outputsIn, type Outputs } from './alert-words.js';

/**
 * Microsoft Teams endpoints (issue 21): a Workflows webhook ("When a Teams webhook request is
 * received") takes a message whose attachment is an Adaptive Card. Version 1.4, which every
 * Teams client renders.
 */
const CARD_VERSION = '1.4';
/**
 * A right-to-left reader's card (Arabic, issue 34): `rtl` on the card, which Adaptive Cards has
 * from version 1.5 only, so that card declares 1.5; a client below it shows `fallbackText`
 * (the title and the sentence) instead. Left-to-right cards stay 1.4, byte for byte as before.
 */
const RTL_CARD_VERSION = '1.5';

/**
 * Teams renders a TextBlock's text (and a fact's value) as Markdown, and replaces
 * `{{DATE(…)}}`/`{{TIME(…)}}` with a formatted time: every ASCII punctuation mark that Markdown
 * or those functions read is escaped with a backslash (CommonMark shows the character itself),
 * so a list name or an upstream headline can neither add a link, an image or emphasis nor
 * rewrite itself as a date. Line breaks become spaces (one line per value).
 */
export function teamsText(value: string): string {
  return withoutBidi(value)
    .replace(/[\r\n\u2028\u2029]+/g, ' ')
    .replace(/[\\`*_{}[\]()<>#+\-.!|~&]/g, (c) => `\\${c}`);
}

/**
 * Teams refuses a message of more than 28 KB: an upstream headline (unbounded) is cut to this
 * many characters, with an ellipsis, before it is escaped (escaping at most doubles it).
 */
export const TEAMS_TEXT_MAX = 2000;

const bounded = (value: string): string =>
  value.length <= TEAMS_TEXT_MAX ? value : `${value.slice(0, TEAMS_TEXT_MAX - 1)}…`;

interface Fact {
  title: string;
  value: string;
}

/** The card's version and direction: what a right-to-left language adds (see above). */
function layoutOf(o: Outputs, title: string, text: string) {
  if (directionOf(o.language) !== 'rtl') return { version: CARD_VERSION };
  const fallbackText = teamsText(bounded(`${title}: ${text}`));
  return { version: RTL_CARD_VERSION, rtl: true, fallbackText };
}

function card(
  title: string,
  text: string,
  facts: Fact[],
  link: string | null,
  button: string,
  o: Outputs,
): string {
  const content = {
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    ...layoutOf(o, title, text),
    body: [
      {
        type: 'TextBlock',
        text: teamsText(bounded(title)),
        weight: 'Bolder',
        size: 'Medium',
        wrap: true,
      },
      { type: 'TextBlock', text: teamsText(bounded(text)), wrap: true },
      ...(facts.length > 0
        ? [
            {
              type: 'FactSet',
              facts: facts.map((f) => ({ title: f.title, value: teamsText(bounded(f.value)) })),
            },
          ]
        : []),
    ],
    // Teams opens absolute links only: without ALERT_LINK_BASE_URL the card has no button.
    ...(link !== null && /^https?:\/\//.test(link)
      ? { actions: [{ type: 'Action.OpenUrl', title: button, url: link }] }
      : {}),
  };
  return JSON.stringify({
    type: 'message',
    attachments: [
      { contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content },
    ],
  });
}

/** One alert's card in the list's language (issue 34; English by default). */
export function teamsAlertBody(alert: Alert, o: Outputs = outputsIn('en')): string {
  return card(
    `${countryIn(alert, o)} (${alert.iso})`,
    alertSentence(alert, o),
    [
      { title: o.t('alert.watchlist'), value: alert.watchlist_name },
      { title: o.t('alert.batch'), value: o.time(alert.batch_as_of) },
    ],
    alert.link,
    o.t('alert.openCountryPage'),
    o,
  );
}

export function teamsTestBody(watchlistName: string, o: Outputs = outputsIn('en')): string {
  const text = o.t('alert.testText', { list: watchlistName });
  return card(o.t('alert.testTitle'), text, [], null, o.t('alert.openCountryPage'), o);
}
