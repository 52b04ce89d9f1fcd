/**
 * Gives the history entry a page load starts on a key of its own, before the router reads it.
 * React Router keys that entry "default" (it has no state yet) and its scroll restoration keeps
 * positions by key in the tab's sessionStorage, across loads: a page opened in the same tab (a
 * pasted link, a bookmark) was scrolled to where the previous load's first page had been left.
 * A reload keeps the entry's state, so its place is still restored. React Router's own
 * server-rendered restoring script keys the entry the same way.
 */
export function keyFirstEntry(history: History = window.history): void {
  const state: unknown = history.state;
  if (isRecord(state) && typeof state.key === 'string') return;
  const key = Math.random().toString(36).slice(2, 10);
  history.replaceState({ ...(isRecord(state) ? state : {}), key }, '');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
