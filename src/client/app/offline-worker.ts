import type { QueryClient } from '@tanstack/react-query';

/**
 * Registers the service worker the build makes (scripts/vite/offline-worker.ts: Workbox keeps
 * the shell and the API answers the pages read), once the page has loaded so that its first
 * requests do not compete with the worker's precaching. Only in a build: the dev server has no
 * worker. A browser without service workers (or one that refuses it) simply has no offline copy.
 *
 * The page's first answers were fetched before any worker existed, so none of them was kept:
 * when a first worker takes control, the data on screen is asked for once more through it, and
 * the page then opens offline after this one visit (not only after a second).
 */
export function registerOfflineWorker(queryClient: QueryClient): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const container = navigator.serviceWorker;
  if (container.controller === null) {
    container.addEventListener(
      'controllerchange',
      () => void queryClient.refetchQueries({ type: 'active' }),
      { once: true },
    );
  }
  const register = () => {
    container.register('/sw.js').catch(() => undefined);
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
