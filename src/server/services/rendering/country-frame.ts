import { headlineChange } from '../../../shared/headline-change.js';
import { delta, isoOf, tierBadge, type Row } from './first-frame.js';
import { escapeHtml, finite, type FrameWords } from './frame-words.js';

/**
 * A country page's first frame (issue 32, point 1), laid out as the SPA's country page
 * (app/routes/country-route.tsx, features/country/components/country-header.tsx) with its class
 * names and words: what needs the script (the compare picker, follow, share, the past-batch bar,
 * "Why it moved", the index switch) keeps its place only, so nothing moves when the SPA takes
 * over. Below the first screen: the categories and the latest 20 events, as a list.
 */

/** What the frame knows of the page beyond the provider's answer. */
export interface CountryFrameFacts {
  /** The BFF keeps history: the follow, brief, past-batch and "why" parts are there. */
  history: boolean;
  /** Our change since the batch recorded before (null: not both recorded, or a method change). */
  recorded: number | null;
}

/** Markup kept for its place only: hidden, out of the accessibility tree and of the tab order. */
const placeholder = (html: string): string =>
  html.replace(/^<(\w+) class="([^"]*)"/, '<$1 class="$2 frame-placeholder" aria-hidden="true"');

function actions(words: FrameWords, iso: string, history: boolean): string {
  const { t } = words;
  const compare = placeholder(
    `<form class="compare-picker"><label>${t('compare.with')}</label>` +
      `<input placeholder="${t('compare.placeholder')}" tabindex="-1">` +
      `<button type="button" tabindex="-1">${t('compare.submit')}</button></form>`,
  );
  const follow = history
    ? placeholder(
        `<span class="follow"><button type="button" class="follow-button" tabindex="-1">` +
          `<span>☆</span><span>${t('table.follow')}</span></button></span>`,
      ) + `<a href="/brief?iso=${iso}">${t('country.brief')}</a>`
    : '';
  return (
    `<div class="country-actions no-print">${compare}${follow}</div>` +
    (history
      ? placeholder(
          `<details class="as-of-bar as-of-closed no-print"><summary>${t('asOf.openPast')}` +
            `</summary></details>`,
        )
      : '')
  );
}

/** The SPA's CountryDeltas: the headline change (ours when recorded) and the active one. */
function deltas(words: FrameWords, country: Row, recorded: number | null): string {
  const { t } = words;
  const change = headlineChange(finite(country.delta_headline), recorded);
  let headline = '';
  if (change.source === 'recorded') {
    const provider =
      change.provider === null
        ? ''
        : `<span aria-hidden="true"> · </span><span class="visually-hidden">, </span>` +
          `<span class="provider-delta">${t(
            change.disagrees ? 'delta.providerFigureDiffers' : 'delta.providerFigure',
            { value: words.signed(change.provider) },
          )}</span>`;
    headline = delta(words, change.value, t('delta.inRiskRecorded')) + provider + '<br>';
  } else if (change.provider !== null) {
    headline = delta(words, change.provider, t('delta.inRiskProvider')) + '<br>';
  }
  return (
    `<p class="country-deltas">${headline}${delta(words, country.delta_active, t('delta.inActive'))}` +
    ` <span class="muted">${t('delta.upstreamPeriod')}</span></p>`
  );
}

function facts(words: FrameWords, country: Row, asOf: unknown, now: number): string {
  const { t } = words;
  const fact = (label: string, value: string, wide = false): string =>
    `<div${wide ? ' class="facts-wide"' : ''}><dt>${t(label)}</dt><dd>${value}</dd></div>`;
  const confidence = finite(country.confidence);
  const vectors = Array.isArray(country.threat_vectors)
    ? (country.threat_vectors as unknown[]).filter((v) => typeof v === 'string')
    : [];
  return (
    `<dl class="facts-grid">` +
    fact('overview.static', words.score(country.static)) +
    fact('overview.active', words.score(country.active)) +
    fact(
      'country.confidence',
      confidence === null
        ? t('format.na')
        : t('country.confidenceOf', { value: words.score(confidence, 0) }),
    ) +
    fact('country.profile', words.humanise(country.profile)) +
    fact('country.sources', words.score(country.source_count, 0)) +
    fact(
      'overview.dataGenerated',
      `<time datetime="${escapeHtml(asOf)}">${words.whenFrom(asOf, now)}</time>`,
    ) +
    fact(
      'country.threatVectors',
      vectors.length === 0
        ? t('format.na')
        : `<ul class="chips">${vectors.map((v) => `<li>${words.humanise(v)}</li>`).join('')}</ul>`,
      true,
    ) +
    `</dl>`
  );
}

/**
 * The country's header and the page's actions: made per request, because it says how long ago
 * the batch was; the rest (categories, events) once per batch.
 */
export function countryHead(
  words: FrameWords,
  answer: Row,
  page: CountryFrameFacts,
  now: number,
): string {
  const { t } = words;
  const country = (answer.country ?? answer) as Row;
  const iso = isoOf(country);
  const name = words.country(country.iso, country.name);
  const formal = escapeHtml(country.name);
  const header =
    `<section class="country-header" aria-labelledby="frame-country-heading">` +
    `<div class="country-title"><h1 id="frame-country-heading">${name} <span class="iso">${iso}` +
    `</span></h1>${formal !== name && formal !== '' ? `<p class="muted formal-name">${formal}</p>` : ''}` +
    placeholder(
      `<div class="share"><button type="button" class="button" tabindex="-1">` +
        `${t('table.shareLink')}</button></div>`,
    ) +
    `</div><div class="country-score"><span class="country-risk">${words.score(country.risk)}` +
    `</span><span class="muted">${t('country.risk')}</span>${tierBadge(words, country.tier)}</div>` +
    deltas(words, country, page.recorded) +
    (page.history
      ? placeholder(
          `<details class="why-disclosure"><summary>${t('why.heading')}</summary></details>`,
        )
      : '') +
    facts(words, country, answer.as_of, now) +
    `</section>`;
  const indexSwitch = placeholder(
    `<div class="segmented risk-index-switch"><button type="button" tabindex="-1">` +
      `${t('table.providerRisk')}</button><button type="button" tabindex="-1">` +
      `${t('table.teamIndex')}</button></div>`,
  );
  return (
    `<p class="back-link"><a href="/">${t('country.back')}</a></p>` +
    `<div class="two-columns wide-first"><div>${header}${indexSwitch}</div>` +
    `<div class="locator-map" aria-hidden="true"><div class="map-canvas map-small"></div></div></div>` +
    actions(words, iso, page.history)
  );
}

/**
 * What countryHead reads of the provider's answer: all of it but the categories and the events,
 * which only the page below the header shows (and which are most of it).
 */
export function countryHeadOf(answer: Row): Row {
  const { categories: _categories, events: _events, ...header } = (answer.country ?? answer) as Row;
  return { as_of: answer.as_of, country: header };
}

/** Below the header: the categories and the latest 20 events. */
export function countryRest(words: FrameWords, answer: Row): string {
  const country = (answer.country ?? answer) as Row;
  const categories = Object.entries((country.categories ?? {}) as Record<string, Row>)
    .sort(([, a], [, b]) => (finite(b?.score) ?? -1) - (finite(a?.score) ?? -1))
    .map(
      ([name, c]) =>
        `<tr><th scope="row">${escapeHtml(name)}</th><td class="num">${words.score(c?.score)}</td></tr>`,
    )
    .join('');
  const events = (Array.isArray(country.events) ? (country.events as Row[]) : [])
    .slice(0, 20)
    .map(
      (e) =>
        `<li><time datetime="${escapeHtml(e.ts)}">${words.when(e.ts)}</time> ${escapeHtml(e.headline)}</li>`,
    )
    .join('');
  return (
    `<section class="panel"><h2>${words.t('categories.heading')}</h2><table class="data-table first-frame-categories"><tbody>` +
    `${categories}</tbody></table></section><section class="panel"><h2>${words.t('country.events')}` +
    `</h2><ul>${events}</ul></section>`
  );
}
