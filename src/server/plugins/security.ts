import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import { LOOPBACK_NAMES } from '../config.js';
import { sendError } from '../reply.js';
import type { SecurityHook } from '../services/rendering/fast-answers.js';

/** The tile host for the CSP: `https://{s}.tile.example.org/{z}/{x}/{y}.png` → `https://*.tile.example.org`. */
export function tileSource(template: string): string {
  const url = new URL(template.replace(/\{s\}/g, 'subdomainx').replace(/\{[a-z]+\}/g, '0'));
  return `${url.protocol}//${url.host.replace('subdomainx', '*')}`;
}

/** What the security headers and the Host check depend on, read from the settings by the root. */
export interface SecurityOptions {
  /** People reach the page over TLS (PUBLIC_URL is https://): HSTS, upgrade-insecure-requests. */
  behindTls: boolean;
  /** ALLOWED_HOSTS: the host names answered for; null any; undefined the loopback names. */
  allowedHosts: string[] | null | undefined;
  /** The OIDC issuer (signing out ends at its end-session page); null without OIDC. */
  oidcIssuerUrl: string | null;
  /** TILE_URL's template; null without a tile server. */
  tileUrl: string | null;
}

/**
 * The security headers. The SPA needs no inline script and talks only to its own
 * origin; Leaflet sets inline styles, hence `style-src 'unsafe-inline'`. HSTS and
 * upgrade-insecure-requests only behind TLS: on plain http at a non-localhost address they make
 * browsers rewrite asset URLs to https and the page never draws.
 */
export function securityHeaders(options: SecurityOptions): Record<string, string> {
  const tiles = options.tileUrl === null ? [] : [tileSource(options.tileUrl)];
  const { oidcIssuerUrl } = options;
  const middleware = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', ...tiles],
        connectSrc: ["'self'"],
        fontSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        // Signing out (a form POST) ends at the identity provider's end-session page.
        formAction: ["'self'", ...(oidcIssuerUrl ? [new URL(oidcIssuerUrl).origin] : [])],
        frameAncestors: ["'none'"],
        ...(options.behindTls ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: options.behindTls
      ? { maxAge: 31_536_000, includeSubDomains: true }
      : false,
    // Tile servers (OpenStreetMap's among them) require a Referer; without tiles, send none out.
    referrerPolicy: {
      policy: tiles.length > 0 ? 'strict-origin-when-cross-origin' : 'same-origin',
    },
    xFrameOptions: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
  });
  // The set is the same for every answer: let helmet write it once, into a plain object.
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: unknown) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, () => {});
  return headers;
}

/**
 * Security headers on every answer, including errors and static files. Computed once at start:
 * @fastify/helmet rebuilds helmet (and re-parses the CSP) on every request, which cost more than
 * a whole cached answer does.
 */
export function installSecurity(app: FastifyInstance, options: SecurityOptions): SecurityHook {
  const headers = Object.entries(securityHeaders(options));
  const hostAllowed = hostCheck(options.allowedHosts);
  app.addHook('onRequest', (request, reply, done) => {
    for (const [name, value] of headers) reply.header(name, value);
    // DNS rebinding: a page on another site whose name now resolves to us must not reach the
    // API (and spend the key) through the visitor's browser. Only our own names are answered.
    if (!hostAllowed(request.headers.host)) {
      void sendError(
        reply,
        421,
        'This server does not answer for that host name (see ALLOWED_HOSTS)',
      );
      return;
    }
    done();
  });
  return { headers, hostAllowed };
}

/** ALLOWED_HOSTS (default: the loopback names; `*`: any) as a check of the `Host` header. */
function hostCheck(
  allowedHosts: string[] | null | undefined,
): (host: string | undefined) => boolean {
  const allowed = allowedHosts === undefined ? LOOPBACK_NAMES : allowedHosts;
  if (allowed === null) return () => true;
  const hosts = new Set(allowed);
  // The last Host header found allowed, as sent: nearly every request carries the same one, so
  // it is taken apart (brackets, port, case) once, not per request. One entry, this app's.
  let lastAllowed: string | undefined;
  return (host) => {
    if (host !== undefined && host === lastAllowed) return true;
    if (!hosts.has(hostName(host))) return false;
    lastAllowed = host;
    return true;
  };
}

/** `Host: [::1]:3000` → `::1`; `Example.org:80` → `example.org`; absent → ''. */
export function hostName(header: string | undefined): string {
  if (!header) return '';
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(header);
  if (bracketed?.[1]) return bracketed[1].toLowerCase();
  return header.replace(/:\d+$/, '').toLowerCase();
}
