/**
 * API answers the offline worker keeps (scripts/vite/offline-worker.ts; issue 32, point 3): what
 * the pages read, written out (not "all of /api") so that a new route holding a secret is not
 * kept by default; never a URL with a credential in its query. Workbox copies this function into
 * the worker as its source text, so it uses nothing from outside itself. The page asks it too,
 * to fetch again for the worker only what the worker keeps (src/client/app/offline-worker.ts).
 */
export const keepsApiAnswer = ({ url, sameOrigin }: { url: URL; sameOrigin: boolean }): boolean =>
  sameOrigin &&
  /^\/api\/(v1\/(hotspots|country\/)|status$|me$|countries|changes|history\/|country\/|notes|method-changes|batches|reference\/|alerts\/unread-count|index-weights|overrides|sites($|\/points$|\/\d+$)|events$)/.test(
    url.pathname,
  ) &&
  ![...url.searchParams.keys()].some((key) => /token|key|secret|signature|password/i.test(key));
