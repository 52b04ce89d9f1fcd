import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { Served } from '../services/rendering/render.js';
import { countryFrame, overviewFrame, withFrame } from '../services/rendering/first-frame.js';
import type { DataRouteOptions } from './respond.js';
import { directionOf, parseAcceptLanguage, resolveLanguage } from '../../shared/i18n/languages.js';

export interface FirstFrameRouteOptions extends DataRouteOptions {
  /** The built SPA: its index.html is read once, here. */
  clientDir: string;
}

/** Pages kept rendered: the overview and the countries people open in one batch. */
const MAX_FRAMES = 256;
const OVERVIEW_HOTSPOTS = { limit: 20, tiers: [], include: [] };
/**
 * The page never waits long for its frame: with the answers cached it is ready in a turn; on a
 * cold start or an upstream outage the plain page goes out and the SPA shows what it can.
 */
const FRAME_WAIT_MS = 300;

function withinWait<T>(work: Promise<T>): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), FRAME_WAIT_MS);
  });
  // A late answer still fills the cache for the next page; its failure is not this page's.
  work.catch(() => undefined);
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * The overview and the country pages, answered with their first frame rendered in (issue 32):
 * once per batch (keyed by the ETags of the answers it is made from, which change with the
 * batch), not per request. Whatever fails (no data yet, an unknown country), the page is the
 * plain index.html and the SPA says what happened, as before.
 */
export async function firstFrameRoutes(
  app: FastifyInstance,
  opts: FirstFrameRouteOptions,
): Promise<void> {
  const indexFile = join(opts.clientDir, 'index.html');
  // No built SPA there (a server run from source, the API alone): the SPA plugin already says
  // so, and these pages have nothing to put a frame into.
  if (!existsSync(indexFile)) return;
  const indexHtml = readFileSync(indexFile, 'utf8');
  const frames = new LRUCache<string, string>({ max: MAX_FRAMES });

  const page = async (
    request: FastifyRequest,
    reply: FastifyReply,
    build: () => Promise<{ key: string | null; render: () => string } | null>,
  ) => {
    let html = indexHtml;
    try {
      const made = await withinWait(build());
      if (made) {
        const cached = made.key === null ? undefined : frames.get(made.key);
        html = cached ?? withFrame(indexHtml, made.render());
        if (made.key !== null && cached === undefined) frames.set(made.key, html);
      }
    } catch (error) {
      request.log.debug({ err: error }, 'first frame not rendered');
    }
    return reply
      .header('cache-control', 'no-cache')
      .header('vary', 'accept-language')
      .type('text/html; charset=utf-8')
      .send(withLanguage(html, request));
  };

  app.get('/', (request, reply) =>
    page(request, reply, async () => {
      const guard = opts.guardFor(request);
      const countries = await opts.data.countries(guard);
      const hotspots = await opts.data.hotspots(OVERVIEW_HOTSPOTS, guard);
      if (countries.status !== 200 || hotspots.status !== 200) return null;
      return {
        key: keyOf('overview', countries, hotspots),
        render: () => overviewFrame(parsed(countries), parsed(hotspots)),
      };
    }),
  );
  app.get<{ Params: { iso: string } }>('/country/:iso', (request, reply) =>
    page(request, reply, async () => {
      const iso = request.params.iso.toUpperCase();
      if (!/^[A-Z]{3}$/.test(iso)) return null;
      const country = await opts.data.country(iso, opts.guardFor(request));
      if (country.status !== 200) return null;
      return { key: keyOf(`country|${iso}`, country), render: () => countryFrame(parsed(country)) };
    }),
  );
}

/**
 * `<html lang dir>` of the page as the SPA will set it from `?lang=` and the browser's
 * languages (issue 34), so a right-to-left page is laid out so from its first frame. The saved
 * setting is the SPA's to apply: reading it here would cost a store query per page.
 */
function withLanguage(html: string, request: FastifyRequest): string {
  const query = (request.query as Record<string, unknown> | undefined)?.lang;
  const language = resolveLanguage({
    query: typeof query === 'string' ? query : null,
    browser: parseAcceptLanguage(request.headers['accept-language']),
  });
  if (language === 'en') return html;
  return html.replace(/<html\b[^>]*>/, `<html lang="${language}" dir="${directionOf(language)}">`);
}

function parsed(served: Served): Record<string, unknown> {
  return JSON.parse(served.body.toString('utf8')) as Record<string, unknown>;
}

/** Null for answers built per request (stale ones): rendered for that request only. */
function keyOf(page: string, ...answers: Served[]): string | null {
  const tags = answers.map((a) => (a.outcome === 'stale' ? undefined : a.headers.etag));
  return tags.every((tag) => tag !== undefined) ? `${page}|${tags.join('|')}` : null;
}
