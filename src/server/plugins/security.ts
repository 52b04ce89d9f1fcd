import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config.js';

/** The tile host for the CSP: `https://{s}.tile.example.org/{z}/{x}/{y}.png` → `https://*.tile.example.org`. */
export function tileSource(template: string): string {
  const url = new URL(template.replace(/\{s\}/g, 'subdomainx').replace(/\{[a-z]+\}/g, '0'));
  return `${url.protocol}//${url.host.replace('subdomainx', '*')}`;
}

/**
 * Security headers on every answer. The SPA needs no inline script and talks only to its own
 * origin; Leaflet sets inline styles, hence `style-src 'unsafe-inline'`. HSTS and
 * upgrade-insecure-requests only behind TLS: on plain http at a non-localhost address they make
 * browsers rewrite asset URLs to https and the page never draws.
 */
export async function registerSecurity(app: FastifyInstance, config: AppConfig): Promise<void> {
  const tiles = config.tiles ? [tileSource(config.tiles.url)] : [];
  await app.register(helmet, {
    global: true,
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
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(config.behindTls ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: config.behindTls
      ? { maxAge: 31_536_000, includeSubDomains: true }
      : false,
    // Tile servers (OpenStreetMap's among them) require a Referer; without tiles, send none out.
    referrerPolicy: {
      policy: tiles.length > 0 ? 'strict-origin-when-cross-origin' : 'same-origin',
    },
    xFrameOptions: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
  });
}
