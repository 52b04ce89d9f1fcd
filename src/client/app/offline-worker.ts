import { keepsApiAnswer } from '../../shared/offline-answers';

/**
 * Registers the service worker the build makes (scripts/vite/offline-worker.ts: Workbox keeps
 * the shell and the API answers the pages read), once the page has loaded so that its first
 * requests do not compete with the worker's precaching. Only in a build: the dev server has no
 * worker. A browser without service workers (or one that refuses it) simply has no offline copy.
 *
 * The page's first answers were fetched before any worker existed, so none of them was kept:
 * when a first worker takes control, they are fetched once more through it, and the page then
 * opens offline after this one visit (not only after a second).
 */
export function registerOfflineWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const container = navigator.serviceWorker;
  if (container.controller === null) {
    container.addEventListener('controllerchange', keepAnswersSeen, { once: true });
  }
  const register = () => {
    container.register('/sw.js').catch(() => undefined);
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}

/**
 * The API answers this page has fetched so far (the browser's resource timing lists them) that
 * the worker keeps, each fetched again through it; the copies are read by nobody.
 * Refetching the page's queries instead checked every answer against its schema again and
 * offered it to the page, to show the same data: the overview's first visit at 4x CPU spent
 * 5.2–5.5 s of its main thread in its first 8 s that way, 4.5–4.6 s this way (docs/benchmarks.md,
 * 1 Dec 2026).
 */
function keepAnswersSeen(): void {
  const seen = new Set<string>();
  // Fetched by the page, or preloaded for it by the page's own links (the first frame's hints).
  for (const entry of performance.getEntriesByType('resource')) {
    const url = new URL(entry.name);
    if (keepsApiAnswer({ url, sameOrigin: url.origin === window.location.origin })) {
      seen.add(url.pathname + url.search);
    }
  }
  // The headers the API client sends (lib/api-client.ts), so the copy answers its requests.
  for (const path of seen) {
    fetch(path, { headers: { Accept: 'application/json' } })
      .then((response) => response.arrayBuffer())
      .catch(() => undefined);
  }
}
