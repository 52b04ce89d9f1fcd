import { isKnownTier } from '../../../shared/tiers.js';
import type { StatusResponse } from '../../../shared/bff-api.js';
import { changeLists } from '../../../shared/change-lists.js';
import type { ChangesResponse, CountryChange } from '../../../shared/history-api.js';
import {
  markerSize,
  PHONE_MARKER_SCALE,
  placeInWorldView,
  worldViewBox,
  worldViewShift,
  type ViewShift,
} from '../../../shared/world-view.js';
import { LAND_WIDTH, landPath } from './frame-land.js';
import { escapeHtml, finite as num, type FrameWords } from './frame-words.js';

export { escapeHtml } from './frame-words.js';

/**
 * The first frame of a page, rendered by the server once per batch and language (issue 32,
 * point 1): plain HTML with the SPA's own class names and words, readable and linkable before
 * any JavaScript runs (and with none). Its first screen is laid out as the SPA's first screen
 * (title bar, index, movers, the map's head), so when the SPA draws itself in its place nothing
 * moves. Every value is upstream text: escaped here, never trusted as markup.
 */

export type Row = Record<string, unknown>;

const tierClass = (tier: unknown): string =>
  `tier-badge tier-${escapeHtml(
    String(tier ?? 'na')
      .toLowerCase()
      .slice(0, 12),
  )}`;
export const isoOf = (row: Row): string =>
  escapeHtml(
    String(row.iso ?? '')
      .toUpperCase()
      .slice(0, 3),
  );

/** The SPA's TierBadge: a known tier in the page's words, any other label as sent. */
export function tierBadge(words: FrameWords, tier: unknown): string {
  if (typeof tier !== 'string' || tier === '') {
    return `<span class="tier-badge tier-none">${words.t('format.na')}</span>`;
  }
  const known = isKnownTier(tier);
  const title = known ? words.t('tiers.known', { tier }) : words.t('tiers.unknown');
  const label = known ? words.t(`tiers.${tier}`) : escapeHtml(tier);
  return `<span class="${tierClass(known ? tier : 'other')}" title="${title}">${label}</span>`;
}

const ARROWS = { up: '\u25b2', down: '\u25bc', flat: '\u25ac' } as const;

function directionOf(value: number): keyof typeof ARROWS {
  const rounded = Number(value.toFixed(2));
  return rounded > 0 ? 'up' : rounded < 0 ? 'down' : 'flat';
}

/** The SPA's Delta: arrow, colour and words, never colour alone. */
export function delta(words: FrameWords, value: unknown, verboseSuffix?: string): string {
  const n = num(value);
  if (n === null) return `<span class="delta delta-unknown">${words.t('format.na')}</span>`;
  const dir = directionOf(n);
  const arrow = `<span aria-hidden="true">${ARROWS[dir]} </span>`;
  if (verboseSuffix !== undefined) {
    const key =
      dir === 'up' ? 'delta.verboseUp' : dir === 'down' ? 'delta.verboseDown' : 'delta.verboseFlat';
    const amount = words.score(Math.abs(n));
    return `<span class="delta delta-${dir} delta-words">${arrow}${words.t(key, { amount })} ${verboseSuffix}</span>`;
  }
  return (
    `<span class="delta delta-${dir}">${arrow}<span class="visually-hidden">` +
    `${words.t(`delta.${dir}`)} </span>${words.signed(n)}</span>`
  );
}

/**
 * The first view's box and how Leaflet shifts it in a box larger than the map's limits, for the
 * stylesheet (base.css, .first-frame-map): the same for every page.
 */
const VIEW_STYLE = (() => {
  const box = worldViewBox();
  const shift = worldViewShift();
  const axis = (name: string, { mid, edge, side }: ViewShift) =>
    `--mid-${name}:${mid.toFixed(5)};--edge-${name}:${edge.toFixed(5)};--side-${name}:${side}`;
  return `--aspect:${(box.width / box.height).toFixed(5)};${axis('x', shift.x)};${axis('y', shift.y)}`;
})();

/**
 * The land under the dots, as Leaflet will draw the shapes before their colours (frame-land.ts):
 * projected on the first overview frame, not at import (72 ms, which every start and every test
 * building the app paid), then kept for the process.
 */
let landSvg: string | undefined;
function landSvgOnce(): string {
  if (landSvg === undefined) {
    const land = landPath();
    landSvg =
      `<svg class="first-frame-land" viewBox="0 0 ${LAND_WIDTH} ${land.height}"` +
      ` preserveAspectRatio="none" aria-hidden="true" focusable="false"><path d="${land.d}"/></svg>`;
  }
  return landSvg;
}

/**
 * Hotspots as dots on the sea, placed and sized as the interactive map will draw its markers
 * (shared/world-view.ts: the same first view, projection and sizes; base.css fits the view into
 * the box as Leaflet does), so they stay put when it takes over. The land under them in one
 * path, not the countries' shapes (those would weigh more than the rest of the page); no
 * script; a link per dot. Dots of a cluster overlap (Leaflet moves its markers apart, which
 * needs the box's size in pixels): the hotspot table below has each of these links at full
 * size, WCAG 2.2's equivalent for SC 2.5.8.
 */
function hotspotMap(words: FrameWords, hotspots: Row[]): string {
  const dots = hotspots
    .map((h) => ({ h, lat: num(h.lat), lng: num(h.lng) }))
    .filter(
      (dot): dot is { h: Row; lat: number; lng: number } => dot.lat !== null && dot.lng !== null,
    )
    .map(({ h, lat, lng }) => {
      const { left, top } = placeInWorldView(lat, lng);
      const risk = num(h.risk);
      const size = markerSize(risk);
      const phoneSize = markerSize(risk, PHONE_MARKER_SCALE);
      const label = `${words.country(h.iso, h.name)}: ${words.t('country.risk')} ${words.score(h.risk)}`;
      return (
        `<a href="/country/${isoOf(h)}" class="first-frame-dot ${dotTier(h.tier)}"` +
        ` style="left:${left.toFixed(3)}%;top:${top.toFixed(3)}%;--size:${size}px;--phone-size:${phoneSize}px"` +
        ` aria-label="${label}" title="${label}"></a>`
      );
    })
    .join('');
  return (
    `<div class="world-map"><div class="map-canvas first-frame-canvas">` +
    `<div class="first-frame-map" style="${VIEW_STYLE}" role="group"` +
    ` aria-label="${words.t('overview.worldMap')}">${landSvgOnce()}` +
    `${dots}</div></div></div>`
  );
}

/** A dot's colours: the marker's for a known tier, the neutral ones for any other label. */
const dotTier = (tier: unknown): string =>
  typeof tier === 'string' && isKnownTier(tier) ? `tier-${tier}` : 'tier-other';

/** A hotspot's change vs yesterday (the provider's figures: the frame has no recorded batch). */
const moveOf = (h: Row): number | null => num(h.delta_headline ?? h.delta_active);

/** One country of a strip's line: a comma after the first, its link, then `what` it did. */
function stripItem(words: FrameWords, row: Row, i: number, what: string): string {
  return (
    `<span class="strip-item">${i > 0 ? ', ' : ''}<a href="/country/${isoOf(row)}">` +
    `${words.country(row.iso, row.name)}</a> ${what}</span>`
  );
}

/**
 * The movers, in the box of the SPA's strip of recorded moves (the same height), from the
 * provider's changes vs yesterday: the two largest rises and falls among the hotspots.
 */
function moversStrip(words: FrameWords, hotspots: Row[]): string {
  const moved = hotspots.filter((h) => moveOf(h) !== null);
  const line = (label: string, rows: Row[]): string =>
    rows.length === 0
      ? ''
      : `<div><dt>${label}</dt><dd>` +
        rows.map((h, i) => stripItem(words, h, i, delta(words, moveOf(h)))).join('') +
        `</dd></div>`;
  const rose = moved.filter((h) => (moveOf(h) ?? 0) > 0).sort((a, b) => moveOf(b)! - moveOf(a)!);
  const fell = moved.filter((h) => (moveOf(h) ?? 0) < 0).sort((a, b) => moveOf(a)! - moveOf(b)!);
  return (
    `<section class="changes-strip first-frame-movers"><h2 class="changes-strip-heading">` +
    `${words.t('overview.movedSinceYesterday')}</h2><dl class="strip-lines">` +
    `${line(words.t('overview.riskRose'), rose.slice(0, 2))}` +
    `${line(words.t('overview.riskFell'), fell.slice(0, 2))}</dl></section>`
  );
}

/** Names per line of the SPA's strip (ChangesStrip's SHOWN). */
const STRIP_NAMES = 2;

/**
 * The SPA's strip of recorded moves (ChangesStrip), from the same `/api/changes` answer: when
 * this dashboard has recorded the batch and the one before it, the frame says what the SPA will
 * say, so the strip does not change its words, names and figures as the SPA takes over.
 */
function recordedStrip(words: FrameWords, changes: ChangesResponse): string {
  const lists = changeLists(changes.countries);
  const movers = (items: CountryChange[]): string =>
    items.length === 0
      ? words.t('overview.none')
      : items
          .slice(0, STRIP_NAMES)
          .map((change, i) => stripItem(words, change, i, delta(words, change.delta_risk)))
          .join('');
  const tierMoves = [...lists.tierUp, ...lists.tierDown];
  const tierMove = (change: CountryChange): string =>
    `${tierBadge(words, change.then.tier)} <span aria-hidden="true">\u2192</span>` +
    `<span class="visually-hidden">${words.t('changes.to')}</span> ${tierBadge(words, change.now.tier)}`;
  const more = tierMoves.length - STRIP_NAMES;
  const tiers =
    tierMoves.length === 0
      ? words.t('overview.noTierChanges')
      : tierMoves
          .slice(0, STRIP_NAMES)
          .map((change, i) => stripItem(words, change, i, tierMove(change)))
          .join('') +
        (more > 0
          ? `<span class="muted">${words.t('changes.andMore', { count: more })}</span>`
          : '');
  const line = (label: string, items: string): string =>
    `<div><dt>${label}</dt><dd>${items}</dd></div>`;
  return (
    `<section class="changes-strip first-frame-movers"><h2 class="changes-strip-heading">` +
    `${words.t('overview.movedHeading')}</h2><dl class="strip-lines">` +
    line(words.t('overview.riskRose'), movers(lists.riskRisers)) +
    line(words.t('overview.riskFell'), movers(lists.riskFallers)) +
    line(words.t('overview.tier'), tiers) +
    `</dl><a class="strip-more" href="#what-changed">${words.t('overview.allChanges')}</a></section>`
  );
}

/**
 * The recorded moves the frame can say as the SPA will: the two batches recorded last, the newer
 * the frame's own, with no method change between them that the SPA would caveat. Else null, and
 * the frame says the provider's changes vs yesterday.
 */
export function recordedMovesOf(
  changes: ChangesResponse | null,
  batchAsOf: unknown,
): ChangesResponse | null {
  if (!changes?.from_batch || !changes.to_batch || typeof batchAsOf !== 'string') return null;
  if (Date.parse(changes.to_batch.as_of) !== Date.parse(batchAsOf)) return null;
  return (changes.method_changes ?? []).some((change) => !change.comparable) ? null : changes;
}

/** What the global header says about checks for a batch (`/api/status`). */
export type BatchTimes = Pick<
  StatusResponse,
  'as_of' | 'next_batch_due_at' | 'last_checked_at' | 'next_check_at'
>;

/** The SPA's BatchCheck line; its "Check now" needs the script, so only its place is kept. */
function batchCheck(words: FrameWords, times: BatchTimes, now: number): string {
  const { t } = words;
  const checked = times.last_checked_at
    ? `${t('overview.checked')} <time datetime="${escapeHtml(times.last_checked_at)}">` +
      `${words.relative(times.last_checked_at, now)}</time>`
    : t('overview.notChecked');
  const nextAt = times.next_check_at ? Date.parse(times.next_check_at) : Number.NaN;
  const next = !times.next_check_at
    ? ''
    : nextAt > now
      ? ` · ${t('overview.nextCheck')} <time datetime="${escapeHtml(times.next_check_at)}">` +
        `${words.clock(times.next_check_at)}</time>`
      : t('overview.checkingAgain');
  return (
    `<p class="batch-check">${checked}${next} <span class="link-button frame-placeholder" ` +
    `aria-hidden="true">${t('overview.checkNow')}</span></p>`
  );
}

/** "10:00 UTC · 2 h ago" as a `<time>`, as the SPA's header writes a batch time. */
function timeFrom(words: FrameWords, iso: unknown, now: number): string {
  return `<time datetime="${escapeHtml(iso)}">${words.whenFrom(iso, now)}</time>`;
}

/** When the next batch is due, or the one overdue (the SPA's NextBatchDue). */
function nextBatch(
  words: FrameWords,
  times: BatchTimes,
  now: number,
  overdue: string | null,
): string {
  if (overdue === null) return timeFrom(words, times.next_batch_due_at, now);
  return (
    `<time datetime="${overdue}" class="overdue">` +
    `${words.clock(overdue)} · ${words.t('overview.overdue')}</time>`
  );
}

/**
 * The SPA's GlobalHeader: the index, its tier and change, and the batch's facts. Made per request
 * (it says how long ago, as the SPA does), the rest of the page once per batch. `overdue` is
 * `overdueBatchAt(times.as_of, now)`, worked out once for the page (its banner says it too).
 */
export function overviewHead(
  words: FrameWords,
  countries: Row,
  times: BatchTimes,
  now: number,
  overdue: string | null,
): string {
  const { t } = words;
  const global = (countries.global ?? {}) as Row;
  const fact = (label: string, value: string): string =>
    `<div><dt>${t(label)}</dt><dd>${value}</dd></div>`;
  return (
    `<h1 class="visually-hidden">${t('pages.overviewHeading')}</h1>` +
    `<section class="global-header" aria-labelledby="frame-index-heading"><div class="global-index">` +
    `<h2 id="frame-index-heading" class="global-index-label">${t('overview.globalIndex')}</h2>` +
    `<p class="global-index-value"><span class="global-index-number" data-testid="frame-index">` +
    `${words.score(global.ggri ?? global.index)}</span>${tierBadge(words, global.tier)}</p>` +
    `<p class="global-index-delta">${delta(words, global.delta_vs_yesterday, t('delta.vsYesterday'))}` +
    `</p></div><dl class="global-facts">` +
    fact('overview.static', words.score(global.static)) +
    fact('overview.active', words.score(global.active)) +
    fact('overview.events24h', words.score(global.events_24h, 0)) +
    fact('overview.dataGenerated', timeFrom(words, countries.as_of, now)) +
    fact('overview.nextBatchDue', nextBatch(words, times, now, overdue)) +
    fact('overview.methodology', escapeHtml(countries.methodology_version ?? t('format.na'))) +
    `<div class="facts-wide batch-check-row"><dt class="visually-hidden">` +
    `${t('overview.checksForBatch')}</dt><dd>${batchCheck(words, times, now)}</dd></div></dl></section>`
  );
}

/** The map panel's head as the SPA writes it, over the static map. */
function mapPanel(words: FrameWords, hotspots: Row[]): string {
  const isos = hotspots.map(isoOf).filter((iso) => /^[A-Z]{3}$/.test(iso));
  const brief = isos.length > 0 ? `/brief?iso=${isos.slice(0, 100).join(',')}` : '/brief';
  return (
    `<section class="panel map-panel" aria-labelledby="frame-map-heading"><div class="panel-head">` +
    `<h2 id="frame-map-heading">${words.t('overview.worldMap')}</h2><p class="panel-sub">` +
    `${words.t('overview.mapByTier')}${words.t('overview.mapHow')}</p>` +
    `<a class="panel-head-link no-print" href="${brief}">${words.t('overview.briefHotspots')}</a>` +
    `</div>${hotspotMap(words, hotspots)}</section>`
  );
}

/**
 * The overview below its global header, the same for everyone in one batch and language: the
 * movers, the map and the hotspot list.
 */
export function overviewRest(
  words: FrameWords,
  hotspotsAnswer: Row,
  /** The recorded moves to show (recordedMovesOf); null: the provider's changes. */
  recorded: ChangesResponse | null = null,
): string {
  const hotspots = Array.isArray(hotspotsAnswer.hotspots) ? (hotspotsAnswer.hotspots as Row[]) : [];
  const rows = hotspots
    .map(
      (h, i) =>
        `<tr><td class="num">${i + 1}</td><th scope="row"><a href="/country/${isoOf(h)}">` +
        `${words.country(h.iso, h.name)}</a> <span class="iso">${isoOf(h)}</span></th>` +
        `<td class="num">${words.score(h.risk)}</td><td>${tierBadge(words, h.tier)}</td></tr>`,
    )
    .join('');
  return (
    (recorded ? recordedStrip(words, recorded) : moversStrip(words, hotspots)) +
    mapPanel(words, hotspots) +
    `<section class="panel"><h2>${words.t('hotspots.heading')}</h2>` +
    `<table class="data-table first-frame-hotspots"><thead><tr><th scope="col">${words.t('table.rank')}</th>` +
    `<th scope="col">${words.t('table.country')}</th><th scope="col">${words.t('table.risk')}</th>` +
    `<th scope="col">${words.t('overview.tier')}</th></tr></thead><tbody>${rows}</tbody></table>` +
    `</section>`
  );
}

/** The SPA's entry and the modules it links ahead, as Vite writes them into index.html. */
const ENTRY_SCRIPT = /[ \t]*<script type="module"[^>]*\ssrc="([^"]+)"[^>]*><\/script>\s*/;
const MODULE_LINK = /[ \t]*<link rel="modulepreload"[^>]*\shref="([^"]+)"[^>]*>\s*/g;
/** public/first-frame-boot.js: starts the SPA once the frame is on screen. */
export const FIRST_FRAME_BOOT = '/first-frame-boot.js';

/**
 * A framed page's head asks for the SPA's scripts only once the frame has been painted
 * (issue 32): linked from the head, the entry and its 160 KB vendor module shared a slow
 * phone's connection with the stylesheet, and Lighthouse's phone run painted the frame at
 * 2.3-2.4 s instead of 0.8-1.2 s. `public/first-frame-boot.js` adds the same script and links
 * after the first frame; the page's data is still asked for with the HTML (preload hints). A
 * head without Vite's entry script is left as it is.
 */
export function scriptsAfterFirstPaint(head: string): string {
  const entry = ENTRY_SCRIPT.exec(head);
  if (!entry) return head;
  const linked = [...head.matchAll(MODULE_LINK)].map(([, href]) => href);
  const boot =
    `<script src="${FIRST_FRAME_BOOT}" data-entry="${entry[1]}"` +
    ` data-modules="${linked.join(' ')}" defer></script>\n`;
  const rest = head.replace(ENTRY_SCRIPT, '').replace(MODULE_LINK, '');
  const end = rest.indexOf('</head>');
  return end === -1 ? rest + boot : rest.slice(0, end) + boot + rest.slice(end);
}

/** index.html's line for a reader without JavaScript, which the frame replaces with its own. */
const NO_SCRIPT = /<noscript id="no-script"[^>]*>[\s\S]*?<\/noscript\s*>/;
const EXPORT_PATH = '/api/v1/export?format=csv';

/**
 * index.html made ready once for its frames: the line for a reader without JavaScript taken out
 * and the text split at the SPA's root, so that framing a page is a few string joins.
 *
 * The returned function gives index.html with the frame (the title bar, then the page) before
 * the SPA's root, which stays hidden until it takes over, and `noScript` (escaped text) as what
 * a reader without JavaScript is told about the page. Without a root there is nothing to frame:
 * index.html as it is. `scriptsAfterPaint`: for a page with a frame of its own to read, not only
 * the title bar (see scriptsAfterFirstPaint).
 */
export function frameTemplate(
  indexHtml: string,
  { scriptsAfterPaint = false }: { scriptsAfterPaint?: boolean } = {},
): (shell: string, page: string, noScript: string) => string {
  const root = '<div id="root"></div>';
  if (!indexHtml.includes(root)) return () => indexHtml;
  const stripped = indexHtml.replace(NO_SCRIPT, '');
  const at = stripped.indexOf(root);
  // The root was inside the line taken out: the page is index.html without that line.
  if (at === -1) return () => stripped;
  // Joined, never a replacement string: there "$`" or "$&" (upstream text may hold them) would
  // insert parts of index.html.
  const before = scriptsAfterPaint
    ? scriptsAfterFirstPaint(stripped.slice(0, at))
    : stripped.slice(0, at);
  const after = stripped.slice(at + root.length);
  return (shell, page, noScript) => {
    // role="main", not <main>: a landmark for readers with JavaScript off, while the SPA's own
    // <main> (what its pages and tests look in) is the only main element.
    // Under the title bar, as the status banner is; the export's path (in every language's
    // line) a link.
    const line =
      '<noscript id="no-script" class="no-script">' +
      noScript.replace(EXPORT_PATH, () => `<a href="${EXPORT_PATH}">${EXPORT_PATH}</a>`) +
      '</noscript>';
    return (
      before +
      `<div id="first-frame" class="first-frame">${shell}${line}<div role="main">${page}</div></div>` +
      '<div id="root" class="behind-first-frame"></div>' +
      after
    );
  };
}
