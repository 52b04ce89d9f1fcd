import type { FrameWords } from './frame-words.js';
import { escapeHtml } from './frame-words.js';

/** What the title bar shows that depends on the server and the reader, not on the batch. */
export interface ShellFacts {
  demo: boolean;
  /** The BFF keeps history: exposure, events, watchlists and alerts are there to link to. */
  history: boolean;
  /** The asker's role (open access: admin, as /api/me says). */
  role: string;
  /** Who is signed in (null: nobody signs in here, as with open access). */
  person: { name: string; role: string } | null;
  /**
   * The status banner under the title bar, as the SPA's StatusBanner says it (shared/
   * status-lines.ts): the data service's health and the lines, plain text (none: no banner).
   */
  banner: { health: string; lines: string[] };
}

/** The SPA's status banner: an overdue batch or an outage said from the first paint. */
function statusBanner({ health, lines }: ShellFacts['banner']): string {
  if (lines.length === 0) return '';
  const said = lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('');
  return `<div class="status-banner status-${escapeHtml(health)}" role="status">${said}</div>`;
}

/**
 * The SPA's title bar and status banner (app/routes/root-layout.tsx) as the frame's first lines, with its class
 * names, so the page below it starts where the SPA's will and nothing moves when the SPA takes
 * over (issue 32). Made per request (a few links): who is signed in is the reader's own. The
 * unread count arrives with the SPA, into the space its badge keeps; the "Find a country"
 * button needs the script, so the frame only keeps its place.
 */
export function frameShell(words: FrameWords, facts: ShellFacts): string {
  const { t } = words;
  const demo = facts.demo
    ? `<span class="demo-badge" title="${t('shell.demoBadgeTitle')}">${t('shell.demoBadge')}</span>`
    : '';
  const search =
    `<button type="button" class="search-button frame-placeholder" aria-hidden="true" ` +
    `tabindex="-1"><span>⌕ </span>${t('search.find')}<kbd class="search-kbd">Ctrl K</kbd></button>`;
  const nav = facts.history
    ? `<nav class="app-nav" aria-label="${t('shell.navLabel')}">` +
      `<a href="/exposure">${t('shell.exposure')}</a><a href="/events">${t('shell.events')}</a>` +
      `<a href="/watchlists">${t('shell.watchlists')}</a><a class="unread-link" href="/alerts">` +
      `${t('shell.alerts')} <span class="unread-count is-empty"></span></a></nav>`
    : '';
  const person = facts.person;
  const admin = facts.role === 'admin' ? `<a href="/admin/audit">${t('shell.auditLog')}</a>` : '';
  const menu = person
    ? `<details class="user-menu"><summary><span class="user-name">${escapeHtml(person.name)}` +
      `</span> <span class="user-role">(${escapeHtml(person.role)})</span></summary></details>`
    : '';
  return (
    `<header class="app-bar"><a href="/" class="brand"><span class="brand-mark" aria-hidden="true">` +
    `</span>${t('shell.brand')}</a>${demo}${search}${nav}${admin}${menu}</header>` +
    statusBanner(facts.banner)
  );
}
