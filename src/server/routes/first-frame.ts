import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { Served } from '../services/rendering/render.js';
import { countryHead, countryHeadOf, countryRest } from '../services/rendering/country-frame.js';
import {
  frameTemplate,
  overviewHead,
  overviewRest,
  recordedMovesOf,
  type Row,
} from '../services/rendering/first-frame.js';
import { frameShell } from '../services/rendering/frame-shell.js';
import { frameWords, type FrameWords } from '../services/rendering/frame-words.js';
import type { DataRouteOptions } from './respond.js';
import {
  directionOf,
  parseAcceptLanguage,
  isLanguage,
  resolveLanguage,
  type Language,
  type UiLanguage,
} from '../../shared/i18n/languages.js';
import type { StatusResponse } from '../../shared/bff-api.js';
import type { ChangesResponse } from '../../shared/history-api.js';
import { principalOf } from '../principal.js';
import { parseAsOf } from '../../shared/page-data.js';
import type { MoveExplanations } from '../services/history/explain.js';
import { recordedChangeOf } from '../services/rendering/recorded-change.js';
import { overdueBatchAt, statusLines } from '../../shared/status-lines.js';

export interface FirstFrameRouteOptions extends DataRouteOptions {
  /** The built SPA: its index.html is read once, here. */
  clientDir: string;
  /** What `/api/status` says: demo or live, history kept, when the next batch is due. */
  status: () => StatusResponse;
  now: () => number;
  /** Why a country moved between the two batches recorded last (null: no history kept). */
  explanations: Pick<MoveExplanations, 'explain'> | null;
  /**
   * The moves between the two batches recorded last, as `/api/changes` answers the overview's
   * strip: the store's kept JSON, the same string until the next batch (null: no history kept).
   */
  recordedMovesJson: ((request: FastifyRequest) => Promise<string>) | null;
}

/**
 * A page's frame as kept for its batch and language: the body, and what is made per request
 * above it (the overview's header says how long ago the batch was).
 */
interface Frame {
  /** The SPA page's own class (its layout: panels and the gaps between them). */
  page: 'overview' | 'country-page';
  body: string;
  /** `overdue`: the batch overdue at `now` (overdueBatchAt), worked out once per page. */
  head?: (status: StatusResponse, now: number, overdue: string | null) => string;
}

/**
 * The SPA's other pages (app/routes.tsx): their title bar and status banner come from the server
 * too, so the page never moves down when /api/status and /api/me answer late (the navigation and
 * the user menu depend on them: the title bar grew from 83 to 144 px on a phone, a layout shift
 * of 0.067, with both answers 800 ms late). Their own content is the SPA's, drawn below it.
 * A path missing here is served the plain index.html, as before.
 *
 * Their lazily loaded modules are not linked from the HTML: 20 module requests started with the
 * page's stylesheet put Lighthouse's first paint of a country page on a phone 0.8-1.0 s later
 * (docs/benchmarks.md); Vite's loader asks for them as the SPA starts.
 */
export const SHELL_PAGES = [
  '/compare',
  '/events',
  '/alerts',
  '/watchlists',
  '/watchlists/:id',
  '/brief',
  '/brief/:watchlistId',
  '/exposure',
  '/exposure/brief',
  '/admin/audit',
  '/admin/reach',
  '/sites/:id',
] as const;

/** Pages kept rendered: the overview and the countries people open in one batch. */
const MAX_FRAMES = 256;
const OVERVIEW_HOTSPOTS = { limit: 20, tiers: [], include: [] };
/**
 * The page never waits long for its frame: with the answers cached it is ready in a turn; on a
 * cold start or an upstream outage the plain page goes out and the SPA shows what it can.
 */
const FRAME_WAIT_MS = 300;
/**
 * Of that, how long a country page waits for the store's change recorded here: a cold or busy
 * store must not cost the page its frame. The provider's figure shows meanwhile; the store's
 * late answer is kept, and the next page is made with it.
 */
const RECORDED_WAIT_MS = 100;

function withinWait<T>(work: Promise<T>, waitMs = FRAME_WAIT_MS): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), waitMs);
  });
  // A late answer still fills the cache for the next page; its failure is not this page's.
  work.catch(() => undefined);
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** How a page's frame is made: a key per batch (null: this request only) and the rendering. */
type FrameBuild = (
  words: FrameWords,
) => Promise<{ key: string | null; render: () => Frame } | null>;

/**
 * Answers a page with its frame rendered in: each page's frame in each language made once per
 * batch; the title bar above it is the reader's own (who is signed in), a few string joins per
 * request.
 */
function framedPages(indexHtml: string, opts: FirstFrameRouteOptions) {
  // A page with a frame to read starts its scripts after the frame's first paint; a shell page
  // (the title bar alone) needs them for its content at once.
  const framed = frameTemplate(indexHtml, { scriptsAfterPaint: true });
  const shelled = frameTemplate(indexHtml);
  const frames = new LRUCache<string, Frame>({ max: MAX_FRAMES });
  const words = new Map<Language, FrameWords>();
  const wordsIn = (language: Language): FrameWords => {
    let made = words.get(language);
    if (!made) words.set(language, (made = frameWords(language)));
    return made;
  };
  /** `build` null: the title bar alone, above a page the SPA draws (SHELL_PAGES). */
  return async (request: FastifyRequest, reply: FastifyReply, build: FrameBuild | null) => {
    const language = languageOf(request);
    // The pseudo-language's frame is English: the SPA makes its pseudo-text from English.
    const spoken = isLanguage(language) ? language : 'en';
    let html = indexHtml;
    try {
      const status = opts.status();
      const made = build === null ? null : await withinWait(build(wordsIn(spoken)));
      const now = opts.now();
      // Said twice on a page (the banner, the overview's header), worked out once.
      const overdue = overdueBatchAt(status.as_of, now);
      // The page below the title bar: a shell page's is the SPA's alone; a framed page without
      // its frame (data late or missing) is the plain index.html.
      let content: string | null = build === null ? '' : null;
      if (made) {
        const key = made.key === null ? null : `${spoken}|${made.key}`;
        const cached = key === null ? undefined : frames.get(key);
        const frame = cached ?? made.render();
        if (key !== null && cached === undefined) frames.set(key, frame);
        const head = frame.head?.(status, now, overdue) ?? '';
        content = `<div class="${frame.page}">${head}${frame.body}</div>`;
      }
      if (content !== null) {
        const said = wordsIn(spoken);
        const noScript = said.t(made ? 'shell.noScriptFramed' : 'shell.noScriptPage');
        html = (made ? framed : shelled)(
          shellOf(request, said, status, now, overdue),
          content,
          noScript,
        );
      }
    } catch (error) {
      request.log.debug({ err: error }, 'first frame not rendered');
    }
    return reply
      .header('cache-control', 'no-cache')
      .header('vary', 'accept-language')
      .type('text/html; charset=utf-8')
      .send(withLanguage(html, language));
  };
}

/**
 * The overview and the country pages, answered with their first frame rendered in (issue 32):
 * once per batch (keyed by the ETags of the answers it is made from, which change with the
 * batch), not per request. Whatever fails (no data yet, an unknown country), the page is the
 * plain index.html and the SPA says what happened, as before. The SPA's other pages get the
 * title bar alone (SHELL_PAGES).
 */
export async function firstFrameRoutes(
  app: FastifyInstance,
  opts: FirstFrameRouteOptions,
): Promise<void> {
  const indexFile = join(opts.clientDir, 'index.html');
  // No built SPA there (a server run from source, the API alone): the SPA plugin already says
  // so, and these pages have nothing to put a frame into.
  if (!existsSync(indexFile)) return;
  const page = framedPages(readFileSync(indexFile, 'utf8'), opts);
  const recordedChanges = recordedChangeOf(opts.explanations);
  const recordedMoves = opts.recordedMovesJson
    ? parsedOnce<ChangesResponse>(opts.recordedMovesJson)
    : null;
  // What a country page's header reads of each batch's answer, as many as frames are kept.
  const countryHeads = new LRUCache<string, Row>({ max: MAX_FRAMES });

  app.get('/', (request, reply) =>
    page(request, reply, async (words) => {
      if (!showsLatest(request)) return null;
      const guard = opts.guardFor(request);
      const countries = await opts.data.countries(guard);
      const hotspots = await opts.data.hotspots(OVERVIEW_HOTSPOTS, guard);
      if (countries.status !== 200 || hotspots.status !== 200) return null;
      // The strip says the SPA's recorded moves when the store answers in time (its answer is
      // kept for the batch); else the provider's, and a later page is made with ours.
      const recorded = recordedMoves
        ? await withinWait(recordedMoves(request), RECORDED_WAIT_MS)
        : null;
      const batch = keyOf('overview', countries, hotspots);
      const pair = recorded ? `${recorded.from_batch?.as_of}|${recorded.to_batch?.as_of}` : 'none';
      return {
        key: batch === null ? null : `${batch}|${pair}`,
        render: () => {
          // What the header reads, not the whole batch, is kept with the frame.
          const { as_of, methodology_version, global } = parsed(countries);
          const summary = { as_of, methodology_version, global };
          return {
            page: 'overview',
            head: (status, now, overdue) => overviewHead(words, summary, status, now, overdue),
            body: overviewRest(words, parsed(hotspots), recordedMovesOf(recorded, as_of)),
          };
        },
      };
    }),
  );
  app.get<{ Params: { iso: string } }>('/country/:iso', (request, reply) =>
    page(request, reply, countryFrame(request, opts, recordedChanges, countryHeads)),
  );
  for (const path of SHELL_PAGES) app.get(path, (request, reply) => page(request, reply, null));
}

/**
 * A country page's frame. The provider's answer is parsed once per batch for what each request
 * reads of it (its header's part: the batch's time, asked of the store, and what the header
 * shows), kept by the answer's ETag; and again only when a frame is made (a language's first
 * page, our change recorded since), not for a page whose frame is kept.
 */
function countryFrame(
  request: FastifyRequest<{ Params: { iso: string } }>,
  opts: FirstFrameRouteOptions,
  recordedChanges: ReturnType<typeof recordedChangeOf>,
  heads: LRUCache<string, Row>,
): FrameBuild {
  return async (words) => {
    const iso = request.params.iso.toUpperCase();
    if (!/^[A-Z]{3}$/.test(iso) || !showsLatest(request)) return null;
    const country = await opts.data.country(iso, opts.guardFor(request));
    if (country.status !== 200) return null;
    const batch = keyOf(`country|${iso}`, country);
    let answer: Row | undefined;
    const answerOf = (): Row => (answer ??= parsed(country));
    const kept = batch === null ? undefined : heads.get(batch);
    const head = kept ?? countryHeadOf(answerOf());
    if (kept === undefined && batch !== null) heads.set(batch, head);
    // Our change since the batch recorded before, when this batch is the one recorded last.
    const recorded = await withinWait(recordedChanges(iso, head.as_of), RECORDED_WAIT_MS);
    return {
      // A stale answer has no batch to key by: its frame is made for this page and not kept.
      key: batch === null ? null : `${batch}|${recorded ?? 'none'}`,
      render: () => countryPage(words, head, recorded, countryRest(words, answerOf())),
    };
  };
}

/**
 * Made apart from the provider's answer, so that a kept frame holds what its per-request header
 * reads (countryHeadOf) and not the whole answer.
 */
function countryPage(words: FrameWords, head: Row, recorded: number | null, body: string): Frame {
  return {
    page: 'country-page',
    head: (status, now) =>
      countryHead(words, head, { history: Boolean(status.history), recorded }, now),
    body,
  };
}

/**
 * The frame is the latest batch in the provider's index: a page asked as of a past batch or in
 * the team's index (issue 31) gets the plain page, never another view's numbers in its place.
 */
function showsLatest(request: FastifyRequest): boolean {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const asOf = typeof query.as_of === 'string' ? query.as_of : null;
  return parseAsOf(asOf) === null && query.index !== 'team';
}

/**
 * The page's language as the SPA will set it from `?lang=` and the browser's languages (issue
 * 34): the frame is written in it. The saved setting is the SPA's to apply: reading it here
 * would cost a store query per page.
 */
function languageOf(request: FastifyRequest): UiLanguage {
  const query = (request.query as Record<string, unknown> | undefined)?.lang;
  return resolveLanguage({
    query: typeof query === 'string' ? query : null,
    browser: parseAcceptLanguage(request.headers['accept-language']),
  });
}

/** `<html lang dir>`, so a right-to-left page is laid out so from its first frame. */
function withLanguage(html: string, language: UiLanguage): string {
  if (language === 'en') return html;
  return html.replace(/<html\b[^>]*>/, `<html lang="${language}" dir="${directionOf(language)}">`);
}

/**
 * The title bar (the server's mode, and who asks: nobody named when access is open) and the
 * status banner (an overdue batch, an outage, a blocked quota).
 */
function shellOf(
  request: FastifyRequest,
  words: FrameWords,
  status: StatusResponse,
  now: number,
  overdue: string | null,
): string {
  const who = principalOf(request);
  return frameShell(words, {
    demo: status.mode === 'demo',
    history: Boolean(status.history),
    role: who.role,
    person: who.via === 'open' ? null : { name: who.name, role: who.role },
    banner: {
      health: status.upstream.health,
      lines: statusLines(status, now, words.status, overdue),
    },
  });
}

/**
 * `read`'s answers parsed, each distinct JSON string once (the last one kept): the overview's
 * recorded moves (70 KB) are one string per batch, and parsing them for every page cost about
 * 0.4 ms of the 2.7 ms a framed overview took, and its garbage. The value is shared: read only.
 */
function parsedOnce<T>(
  read: (request: FastifyRequest) => Promise<string>,
): (request: FastifyRequest) => Promise<T> {
  let last: { json: string; value: T } | null = null;
  return async (request) => {
    const json = await read(request);
    if (last?.json !== json) last = { json, value: JSON.parse(json) as T };
    return last.value;
  };
}

function parsed(served: Served): Record<string, unknown> {
  return JSON.parse(served.body.toString('utf8')) as Record<string, unknown>;
}

/** Null for answers built per request (stale ones): rendered for that request only. */
function keyOf(page: string, ...answers: Served[]): string | null {
  const tags = answers.map((a) => (a.outcome === 'stale' ? undefined : a.headers.etag));
  return tags.every((tag) => tag !== undefined) ? `${page}|${tags.join('|')}` : null;
}
