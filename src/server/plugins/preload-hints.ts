import type { FastifyInstance } from 'fastify';
import { pageDataPaths } from '../../shared/page-data.js';

/**
 * Preload hints on the SPA's pages: a `Link: <…>; rel=preload; as=fetch; crossorigin` header per
 * data request the page will make (shared/page-data.ts derives them from the URL, as the SPA
 * does). The browser starts those requests with the HTML instead of after the JavaScript has
 * loaded and run, and the SPA's same-origin fetches of the same URLs take the preloaded answers.
 * A header, not tags in index.html: the paths depend on the URL (filters, country), the file on
 * disk stays as built (served pre-compressed), and no inline script is needed under the CSP.
 */
export function installPreloadHints(app: FastifyInstance): void {
  // A callback hook, not an async one: every answer passes it (the SPA's pages are answered by
  // routes registered before it and by the not-found handler, so it cannot be the pages' own),
  // and an API answer should pay two comparisons for it, not a promise.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.method !== 'GET' || reply.statusCode !== 200) return done(null, payload);
    const type = reply.getHeader('content-type');
    if (typeof type !== 'string' || !type.startsWith('text/html')) return done(null, payload);
    const url = new URL(request.url, 'http://page.invalid');
    // The sign-in form is not the SPA: preloading the API there only fetched two 401s (seen
    // after sign-out, test/e2e/offline.test.ts).
    if (url.pathname === '/login') return done(null, payload);
    const paths = pageDataPaths(url.pathname, url.searchParams);
    if (paths.length > 0) {
      reply.header(
        'link',
        paths.map((path) => `<${path}>; rel=preload; as=fetch; crossorigin`).join(', '),
      );
    }
    done(null, payload);
  });
}
