import type { IncomingMessage, ServerResponse } from 'node:http';
import { LRUCache } from 'lru-cache';
import { represent, type Representation, type Served } from './render.js';

/** The URLs a dashboard asks for the hotspot list are a handful; a flood of others evicts. */
const MAX_URLS = 64;
/** Larger answers (exports) go through Fastify, which streams them in chunks. */
const MAX_BODY_BYTES = 64 * 1024;

/** What the security hook (plugins/security.ts) does to every answer, for the fast path to do too. */
export interface SecurityHook {
  /** The security headers, as `[name, value]` pairs, the same for every answer. */
  headers: Array<[string, string]>;
  /** The DNS-rebinding check: may a request with this `Host` header be answered? */
  hostAllowed: (host: string | undefined) => boolean;
}

/** Produces the answer for a remembered URL when it is fresh in the cache, else null. */
export type FreshAnswer = () => Served | null;

/**
 * The hot path of issue 35 (item 10): a fresh cached answer written straight to the socket,
 * before Fastify builds a request, a reply, a child logger and runs its hooks for it. A route
 * that has answered a URL from a fresh cache entry remembers it here (`remember`); the next GET
 * of that exact URL is answered here while the entry stays fresh. Anything else (a miss, a
 * refresh due, stale data, another method, a refused Host, the app closing) goes to Fastify.
 * Installed by plugins/fast-answers.ts.
 *
 * What it keeps of the Fastify path, and why that is all of it for such a request (a GET of a
 * data route that declares no role): the security headers and the Host check (the same
 * `SecurityHook` the onRequest hook uses); the cross-site guard lets every GET through; roles
 * and audit are not hooks of these routes; the answer's status, headers, ETag/304, Vary and
 * encoding come from `represent`, which `sendServed` uses too; the cache metrics are counted by
 * the `FreshAnswer` itself; the access log writes no line for a hit at info. It stays off when
 * access control is configured (every request must pass the access hook) and when the log level
 * would write a line per hit (debug, trace). test/server/fast-answers.test.ts compares its
 * answers with Fastify's, header for header, for every encoding and for 304s.
 */
export class FastAnswers {
  readonly #byUrl = new LRUCache<string, FreshAnswer>({ max: MAX_URLS });
  #security: SecurityHook | null = null;
  #closing = false;

  /** A URL (path and query, as sent) that `fresh` answers; `served` is what it just gave. */
  remember(url: string, served: Served, fresh: FreshAnswer): void {
    if (this.#security === null || served.body.length > MAX_BODY_BYTES) return;
    this.#byUrl.set(url, fresh);
  }

  /** Answers the request when it can (true); false leaves it, untouched, to Fastify. */
  answer(req: IncomingMessage, res: ServerResponse): boolean {
    const security = this.#security;
    if (security === null || this.#closing || req.method !== 'GET' || req.url === undefined) {
      return false;
    }
    const fresh = this.#byUrl.get(req.url);
    if (fresh === undefined || !security.hostAllowed(req.headers.host)) return false;
    const chosen = this.#representation(fresh, req);
    if (chosen === null) return false;
    const { status, headers, body } = chosen;
    // One list in Fastify's order: security headers (onRequest), the answer's, the length.
    const wire: string[] = [];
    for (const [name, value] of security.headers) wire.push(name, value);
    for (const name in headers) wire.push(name, headers[name] as string);
    if (body !== null) wire.push('content-length', String(body.length));
    res.writeHead(status, wire);
    res.end(body ?? undefined);
    return true;
  }

  /** Null when Fastify should answer; a failure here is Fastify's to report too (a 500). */
  #representation(fresh: FreshAnswer, req: IncomingMessage): Representation | null {
    try {
      const served = fresh();
      if (served === null || served.body.length > MAX_BODY_BYTES) return null;
      return represent(served, req.headers['accept-encoding'], req.headers['if-none-match']);
    } catch {
      return null;
    }
  }

  /** Turned on by `installFastAnswers` (plugins/); until then (and when off) every request goes to Fastify. */
  enable(security: SecurityHook): void {
    this.#security = security;
  }

  /** From the start of `close()`: Fastify answers what still arrives (503, Connection: close). */
  closing(): void {
    this.#closing = true;
    this.#byUrl.clear();
  }
}
