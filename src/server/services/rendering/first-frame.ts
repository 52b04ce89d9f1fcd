import { tierLabel } from '../../../shared/tiers.js';

/**
 * The first frame of a page, rendered by the server once per batch (issue 32, point 1): plain
 * HTML with the SPA's own class names, readable and linkable before any JavaScript runs (and
 * with none). The SPA hides it and draws itself in its place once its first render is done.
 * Every value is upstream text: escaped here, never trusted as markup.
 */

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

type Row = Record<string, unknown>;

const num = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;
const score = (value: unknown): string => num(value)?.toFixed(2) ?? 'n/a';
const signed = (value: unknown): string => {
  const n = num(value);
  if (n === null) return 'n/a';
  return n > 0 ? `+${n.toFixed(2)}` : n < 0 ? `−${Math.abs(n).toFixed(2)}` : '0.00';
};
const tierClass = (tier: unknown): string =>
  `tier-badge tier-${escapeHtml(
    String(tier ?? 'na')
      .toLowerCase()
      .slice(0, 12),
  )}`;
const tierWords = (tier: unknown): string =>
  typeof tier === 'string' && tier !== '' ? escapeHtml(tierLabel(tier)) : 'n/a';
const isoOf = (row: Row): string =>
  escapeHtml(
    String(row.iso ?? '')
      .toUpperCase()
      .slice(0, 3),
  );

/** When the batch was made, in words a phone reader can take in at a glance (UTC). */
export function batchWords(asOf: unknown): string {
  const time = Date.parse(String(asOf ?? ''));
  if (!Number.isFinite(time)) return 'an unknown batch';
  const date = new Date(time);
  const month = date.toLocaleString('en-GB', { month: 'short', timeZone: 'UTC' });
  const hh = String(date.getUTCHours()).padStart(2, '0');
  const mm = String(date.getUTCMinutes()).padStart(2, '0');
  return `${date.getUTCDate()} ${month} ${hh}:${mm} UTC`;
}

/** Hotspots as dots on an equirectangular frame: no shapes, no script, a link per dot. */
function hotspotMap(hotspots: Row[]): string {
  const dots = hotspots
    .filter((h) => num(h.lat) !== null && num(h.lng) !== null)
    .map((h) => {
      const x = ((num(h.lng) ?? 0) + 180) * (1000 / 360);
      const y = (90 - (num(h.lat) ?? 0)) * (500 / 180);
      const r = 6 + Math.min(10, Math.max(0, (num(h.risk) ?? 0) / 10));
      const name = escapeHtml(h.name);
      return (
        `<a href="/country/${isoOf(h)}"><circle class="first-frame-dot ${tierClass(h.tier)}"` +
        ` cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${r.toFixed(1)}">` +
        `<title>${name}: risk ${score(h.risk)}</title></circle></a>`
      );
    })
    .join('');
  return (
    `<svg class="first-frame-map" viewBox="0 0 1000 500" role="img" aria-label="Map of the hotspots">` +
    `<rect width="1000" height="500" class="first-frame-sea"/>${dots}</svg>`
  );
}

function moversStrip(hotspots: Row[]): string {
  const moved = hotspots
    .filter((h) => num(h.delta_headline ?? h.delta_active) !== null)
    .sort(
      (a, b) =>
        Math.abs(num(b.delta_headline ?? b.delta_active) ?? 0) -
        Math.abs(num(a.delta_headline ?? a.delta_active) ?? 0),
    )
    .slice(0, 5);
  if (moved.length === 0) return '';
  const items = moved
    .map(
      (h) =>
        `<li><a href="/country/${isoOf(h)}">${escapeHtml(h.name)}</a> ` +
        `${signed(h.delta_headline ?? h.delta_active)}</li>`,
    )
    .join('');
  return `<section class="panel first-frame-movers"><h2>Moved most</h2><ul>${items}</ul></section>`;
}

/** The overview: the global index, the movers, the hotspot list and its map. */
export function overviewFrame(countries: Row, hotspotsAnswer: Row): string {
  const global = (countries.global ?? {}) as Row;
  const hotspots = Array.isArray(hotspotsAnswer.hotspots) ? (hotspotsAnswer.hotspots as Row[]) : [];
  const rows = hotspots
    .map(
      (h, i) =>
        `<tr><td class="num">${i + 1}</td><th scope="row"><a href="/country/${isoOf(h)}">` +
        `${escapeHtml(h.name)}</a> <span class="iso">${isoOf(h)}</span></th>` +
        `<td class="num">${score(h.risk)}</td><td><span class="${tierClass(h.tier)}">` +
        `${tierWords(h.tier)}</span></td></tr>`,
    )
    .join('');
  return (
    `<section class="global-header panel"><h2 class="global-index-label">Global risk index</h2>` +
    `<p class="global-index-value"><span class="global-index-number" data-testid="frame-index">` +
    `${score(global.ggri ?? global.index)}</span> <span class="${tierClass(global.tier)}">` +
    `${tierWords(global.tier)}</span></p>` +
    `<p class="muted">Batch of ${escapeHtml(batchWords(countries.as_of))}; ` +
    `${signed(global.delta_vs_yesterday)} vs yesterday</p></section>` +
    moversStrip(hotspots) +
    `<section class="panel"><h2>Hotspots</h2>${hotspotMap(hotspots)}` +
    `<table class="data-table first-frame-hotspots"><thead><tr><th scope="col">#</th>` +
    `<th scope="col">Country</th><th scope="col">Risk</th><th scope="col">Tier</th></tr>` +
    `</thead><tbody>${rows}</tbody></table></section>`
  );
}

/** A country page: its header, its categories and its events. */
export function countryFrame(answer: Row): string {
  const country = (answer.country ?? answer) as Row;
  const categories = Object.entries((country.categories ?? {}) as Record<string, Row>)
    .sort(([, a], [, b]) => (num(b?.score) ?? -1) - (num(a?.score) ?? -1))
    .map(
      ([name, c]) =>
        `<tr><th scope="row">${escapeHtml(name)}</th><td class="num">${score(c?.score)}</td></tr>`,
    )
    .join('');
  const events = (Array.isArray(country.events) ? (country.events as Row[]) : [])
    .slice(0, 20)
    .map(
      (e) =>
        `<li><time datetime="${escapeHtml(e.ts)}">${escapeHtml(batchWords(e.ts))}</time> ${escapeHtml(e.headline)}</li>`,
    )
    .join('');
  return (
    `<section class="country-header panel"><h1>${escapeHtml(country.name)} ` +
    `<span class="iso">${isoOf(country)}</span></h1><p><span class="country-risk">` +
    `${score(country.risk)}</span> risk <span class="${tierClass(country.tier)}">` +
    `${tierWords(country.tier)}</span></p><p class="muted">Batch of ` +
    `${escapeHtml(batchWords(answer.as_of))}</p></section>` +
    `<section class="panel"><h2>Categories</h2><table class="data-table"><tbody>${categories}` +
    `</tbody></table></section><section class="panel"><h2>Events</h2><ul>${events}</ul></section>`
  );
}

/** index.html with the frame before the SPA's root, which stays hidden until it takes over. */
export function withFrame(indexHtml: string, frame: string): string {
  const root = '<div id="root"></div>';
  if (!indexHtml.includes(root)) return indexHtml;
  return indexHtml.replace(
    root,
    // role="main", not <main>: a landmark for readers with JavaScript off, while the SPA's
    // own <main> (what its pages and tests look in) is the only main element.
    `<div id="first-frame" class="first-frame"><div role="main">${frame}</div></div>` +
      '<div id="root" class="behind-first-frame"></div>',
  );
}
