import type { IncomingMessage, ServerResponse } from 'node:http';
import { LRUCache } from 'lru-cache';
import { represent, type Representation, type Served } from './render.js';

/** The URLs a dashboard asks for the hotspot list are a handful; a flood of others evicts. */
const MAX_URLS = 64;
/** Larger answers (exports) go through Fastify, which streams them in chunks. */
const MAX_BODY_BYTES = 64 * 1024;
/** Browsers send a handful of distinct Accept-Encoding values. */
const MAX_ENCODING_TEXTS = 8;

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
  readonly #byUrl = new LRUCache<string, Remembered>({ max: MAX_URLS });
  #security: SecurityHook | null = null;
  #closing = false;

  /** A URL (path and query, as sent) that `fresh` answers; `served` is what it just gave. */
  remember(url: string, served: Served, fresh: FreshAnswer): void {
    if (this.#security === null || served.body.length > MAX_BODY_BYTES) return;
    // Kept when known: the same URL is answered the same way, and its wire forms stay.
    if (!this.#byUrl.has(url)) this.#byUrl.set(url, { fresh, body: null, wires: new Map() });
  }

  /** Answers the request when it can (true); false leaves it, untouched, to Fastify. */
  answer(req: IncomingMessage, res: ServerResponse): boolean {
    const security = this.#security;
    if (security === null || this.#closing || req.method !== 'GET' || req.url === undefined) {
      return false;
    }
    const remembered = this.#byUrl.get(req.url);
    if (remembered === undefined || !security.hostAllowed(req.headers.host)) return false;
    const served = freshOrNull(remembered.fresh);
    if (served === null) return false;
    const wire = this.#wire(security, remembered, served, req);
    if (wire === null) return false;
    // The one header that moves while the body stays: patched in, the rest as built.
    if (wire.age >= 0) wire.headers[wire.age] = served.headers.age ?? '0';
    res.writeHead(wire.status, wire.headers);
    res.end(wire.body ?? undefined);
    return true;
  }

  /**
   * What to write, built once per cached body and `Accept-Encoding` text: the same body (the
   * same rendered record of the same cache entry) means the same headers but `age`. With
   * `If-None-Match` it is decided per request (a 304 or not).
   */
  #wire(
    security: SecurityHook,
    remembered: Remembered,
    served: Served,
    req: IncomingMessage,
  ): Wire | null {
    const accept = req.headers['accept-encoding'];
    const ifNoneMatch = req.headers['if-none-match'];
    const key = typeof accept === 'string' ? accept : '';
    const reusable = ifNoneMatch === undefined;
    if (reusable && remembered.body === served.body) {
      const kept = remembered.wires.get(key);
      if (kept) return kept;
    }
    let chosen: Representation;
    try {
      chosen = represent(served, accept, ifNoneMatch);
    } catch {
      return null;
    }
    const wire = wireOf(security, chosen);
    if (reusable) {
      if (remembered.body !== served.body || remembered.wires.size >= MAX_ENCODING_TEXTS) {
        remembered.wires.clear();
        remembered.body = served.body;
      }
      remembered.wires.set(key, wire);
    }
    return wire;
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

/** A URL remembered: what answers it, and its wire forms for the body last seen. */
interface Remembered {
  fresh: FreshAnswer;
  body: Buffer | null;
  /** By `Accept-Encoding` text; at most MAX_ENCODING_TEXTS. */
  wires: Map<string, Wire>;
}

/** Status, header list (name, value, …) and body, as `writeHead` and `end` take them. */
interface Wire {
  status: number;
  headers: string[];
  /** Index of the `age` value in `headers`; -1 when there is none. */
  age: number;
  body: Buffer | null;
}

/** The fresh answer, or null when Fastify should answer (a failure too: it reports a 500). */
function freshOrNull(fresh: FreshAnswer): Served | null {
  try {
    const served = fresh();
    return served === null || served.body.length > MAX_BODY_BYTES ? null : served;
  } catch {
    return null;
  }
}

/** One list in Fastify's order: security headers (its onRequest hook), the answer's, the length. */
function wireOf(security: SecurityHook, { status, headers, body }: Representation): Wire {
  const list: string[] = [];
  let age = -1;
  for (const [name, value] of security.headers) list.push(name, value);
  for (const name in headers) {
    if (name === 'age') age = list.length + 1;
    list.push(name, headers[name] as string);
  }
  if (body !== null) list.push('content-length', String(body.length));
  return { status, headers: list, age, body };
}
