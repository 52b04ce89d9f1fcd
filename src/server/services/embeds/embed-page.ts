import { createHash } from 'node:crypto';
import type { CountrySummary } from '../../../shared/bff-api.js';
import { globalIndexValue, type GlobalSummary } from '../../../shared/schemas/global.js';
import { KNOWN_TIERS, tierColour, tierLabel } from '../../../shared/tiers.js';
import { withoutBidi } from '../../../shared/user-text.js';
import { displayName } from '../reference/display-names.js';
import type { EmbedListing } from './embeds.js';
import { MAP_HEIGHT, MAP_WIDTH, type MapShape } from './world-map-svg.js';

/** What one page shows: the embed, the batch it reads (null: none recorded yet), its extras. */
export interface EmbedContent {
  embed: EmbedListing;
  batch: {
    as_of: string;
    global?: GlobalSummary | null;
    countries: CountrySummary[];
  } | null;
  /** Each country's risk change since the batch recorded before (the index view's movers). */
  deltas: ReadonlyMap<string, number> | null;
  /** The watchlist view's list. */
  watchlist: { name: string; countries: string[] } | null;
  /** The dashboard's page for this view (absolute), for the link back. */
  dashboardUrl: string;
}

/** Upstream and admin text is untrusted: every value goes through this into the page. */
export function escapeHtml(value: string): string {
  return withoutBidi(value).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

/**
 * The page's one script: every 30 s it asks `<page>/batch` for the newest batch and reloads when
 * it changed, or when the embed is refused (revoked, expired: the reload shows why). No library.
 */
export const EMBED_SCRIPT =
  "(function(){var b=document.documentElement.getAttribute('data-batch');setInterval(function(){" +
  "fetch(location.pathname+'/batch',{cache:'no-store'}).then(function(r){if(r.status===403){location.reload();return;}" +
  'return r.json().then(function(j){if(j&&j.as_of!==b)location.reload();});}).catch(function(){});},30000);})();';
export const EMBED_SCRIPT_HASH = `'sha256-${createHash('sha256').update(EMBED_SCRIPT).digest('base64')}'`;

const STYLE =
  'body{margin:0;font:14px/1.4 system-ui,sans-serif;color:#1a1a1a;background:#fff}' +
  'main{padding:8px 12px}h1{font-size:16px;margin:0 0 4px}p{margin:4px 0}' +
  'table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:4px 6px;border-bottom:1px solid #ddd}' +
  'td.n{text-align:right;font-variant-numeric:tabular-nums}svg{width:100%;height:auto;max-height:calc(100vh - 120px);display:block}' +
  '.tier{display:inline-block;padding:0 6px;border-radius:3px}.legend{display:flex;flex-wrap:wrap;gap:8px;list-style:none;padding:0;margin:4px 0}' +
  'footer{font-size:12px;padding:4px 12px 8px;color:#444}a{color:#0b4f9c;display:inline-block;min-height:24px;line-height:24px}';

const TITLES: Record<string, string> = {
  map: 'World map of country risk tiers',
  index: 'Global risk index and its movers',
  country: 'Country risk',
  watchlist: 'Watchlist',
};

const num = (value: number | null | undefined, digits = 1): string =>
  typeof value === 'number' && Number.isFinite(value) ? value.toFixed(digits) : '–';

function tierChip(tier: string | null | undefined): string {
  if (!tier) return '–';
  const { fill, text } = tierColour(tier);
  return `<span class="tier" style="background:${fill};color:${text}">${escapeHtml(tierLabel(tier))}</span>`;
}

function mapView(shapes: readonly MapShape[], countries: readonly CountrySummary[]): string {
  const byIso = new Map(countries.map((c) => [c.iso.toUpperCase(), c]));
  const paths = shapes.map((shape) => {
    const c = byIso.get(shape.iso);
    const fill = c?.tier ? tierColour(c.tier).fill : '#e0e0e0';
    const title = c
      ? `${displayName(c.iso, c.name)}: ${tierLabel(c.tier ?? '')} (risk ${num(c.risk)})`
      : 'No data';
    return `<path d="${shape.d}" fill="${fill}" stroke="#fff" stroke-width="0.5"><title>${escapeHtml(title)}</title></path>`;
  });
  const legend = KNOWN_TIERS.map(
    (tier) => `<li>${tierChip(tier)} ${countries.filter((c) => c.tier === tier).length}</li>`,
  );
  return (
    `<svg viewBox="0 0 ${MAP_WIDTH} ${MAP_HEIGHT}" role="img" aria-label="World map: each country coloured by its risk tier">` +
    `${paths.join('')}</svg><ul class="legend" aria-label="Countries per tier">${legend.join('')}</ul>`
  );
}

function countryRows(countries: readonly CountrySummary[]): string {
  const rows = [...countries]
    .sort((a, b) => (b.risk ?? -1) - (a.risk ?? -1))
    .map(
      (c) =>
        `<tr><td>${escapeHtml(displayName(c.iso, c.name))} (${escapeHtml(c.iso.toUpperCase())})</td>` +
        `<td class="n">${num(c.risk)}</td><td>${tierChip(c.tier)}</td></tr>`,
    );
  return `<table><thead><tr><th scope="col">Country</th><th scope="col">Risk (0–100)</th><th scope="col">Tier</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function indexView(content: EmbedContent, countries: readonly CountrySummary[]): string {
  const global = content.batch?.global ?? null;
  const byIso = new Map(countries.map((c) => [c.iso.toUpperCase(), c]));
  const movers = [...(content.deltas ?? new Map<string, number>()).entries()]
    .filter(([, delta]) => delta !== 0)
    .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))
    .slice(0, 5)
    .map(([iso, delta]) => {
      const name = displayName(iso, byIso.get(iso)?.name);
      return `<tr><td>${escapeHtml(name)} (${escapeHtml(iso)})</td><td class="n">${delta > 0 ? '+' : '−'}${num(Math.abs(delta))}</td></tr>`;
    });
  return (
    `<p>Global index: <strong>${num(globalIndexValue(global))}</strong> ${tierChip(global?.tier)}</p>` +
    `<h2 style="font-size:14px;margin:8px 0 4px">Biggest movers since the batch before</h2>` +
    (movers.length > 0
      ? `<table><thead><tr><th scope="col">Country</th><th scope="col">Change in risk</th></tr></thead><tbody>${movers.join('')}</tbody></table>`
      : '<p>No change recorded yet.</p>')
  );
}

function countryCard(iso: string, countries: readonly CountrySummary[]): string {
  const c = countries.find((row) => row.iso.toUpperCase() === iso);
  if (!c) return `<p>${escapeHtml(iso)} is not in this batch.</p>`;
  const cell = (label: string, value: string) =>
    `<tr><th scope="row">${label}</th><td class="n">${value}</td></tr>`;
  return (
    `<h2 style="font-size:20px;margin:4px 0">${escapeHtml(displayName(c.iso, c.name))} ${tierChip(c.tier)}</h2>` +
    `<table>${cell('Risk (0–100)', num(c.risk))}${cell('Static score', num(c.static))}` +
    `${cell('Active score', num(c.active))}${cell('Confidence (0–100)', num(c.confidence, 0))}</table>`
  );
}

function body(content: EmbedContent, shapes: () => readonly MapShape[]): string {
  const countries = content.batch?.countries ?? [];
  if (content.batch === null)
    return '<p>No batch is recorded yet: this view fills in after the first one.</p>';
  switch (content.embed.view) {
    case 'map':
      return mapView(shapes(), countries);
    case 'index':
      return indexView(content, countries);
    case 'country':
      return countryCard(content.embed.subject ?? '', countries);
    default: {
      const wanted = new Set((content.watchlist?.countries ?? []).map((iso) => iso.toUpperCase()));
      return countryRows(countries.filter((c) => wanted.has(c.iso.toUpperCase())));
    }
  }
}

/** The whole page: escaped, no external resource, its one script allowed by hash. */
export function embedPage(content: EmbedContent, shapes: () => readonly MapShape[]): string {
  const asOf = content.batch?.as_of ?? '';
  const when = asOf ? `${asOf.slice(0, 16).replace('T', ' ')} UTC` : 'none yet';
  const title =
    content.embed.view === 'watchlist' && content.watchlist
      ? `Watchlist: ${content.watchlist.name}`
      : (TITLES[content.embed.view] ?? 'Global risk');
  return (
    `<!doctype html><html lang="en" data-batch="${escapeHtml(asOf)}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="no-referrer">` +
    `<title>${escapeHtml(title)} · Global Risk Dashboard</title><style>${STYLE}</style></head>` +
    `<body><main><h1>${escapeHtml(title)}</h1>${body(content, shapes)}</main>` +
    `<footer><p>Data generated ${escapeHtml(when)} · <a href="${escapeHtml(content.dashboardUrl)}" target="_blank" rel="noopener noreferrer">Open in the Global Risk Dashboard</a></p></footer>` +
    `<script>${EMBED_SCRIPT}</script></body></html>`
  );
}
