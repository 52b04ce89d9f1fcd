import type { PluginOption } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { keepsApiAnswer } from '../../src/shared/offline-answers.ts';
import { APP_ICONS } from './app-icons.ts';

/** The app bar's colours (src/client/styles/base.css): the installed app's title bar and splash. */
const THEME_COLOUR = '#0a58a8';
const BACKGROUND_COLOUR = '#f3f5f8';
/** How many API answers the worker keeps, and for how long: bounded like every cache here. */
export const OFFLINE_API_ENTRIES = 200;
const OFFLINE_API_MAX_AGE_SECONDS = 14 * 24 * 3600;

/*
 * The two rules the worker follows (this one and keepsApiAnswer, in src/shared, which the page
 * uses too) are copied into it as their source text (Workbox serialises them): each must use
 * nothing from outside itself.
 */

/** Page loads it handles: all but sign-in, sign-out, embeds and the API. */
export const isPageLoad = ({ request, url }: { request: Request; url: URL }): boolean =>
  request.mode === 'navigate' && !/^\/(auth\/|login|logout|embed\/|api\/)/.test(url.pathname);

/**
 * The web app manifest and the service worker (issue 32, point 3), made by Workbox at build time
 * (vite-plugin-pwa's generateSW): no hand-written caching rules. What it keeps:
 * - the shell (index.html, every script, stylesheet and icon of the build) precached, so the SPA
 *   opens with no network; page loads still go to the network first (the BFF's first frame is
 *   current), and only a failed one falls back to the precached index.html;
 * - the API answers the pages read, network first, into the `api-answers` cache: the last answer
 *   seen is what an offline page shows, and the page says it is offline and from which batch.
 * What it never keeps (docs/architecture.md, "Offline"): /auth/*, /login, /logout, embeds and
 * feeds (/embed/*, /api/embeds*, /api/feeds*, /api/feed-tokens*), API tokens and sessions,
 * the audit log, downloads, and any URL that carries a token, key or secret in its query.
 * Sign-out deletes every cache and the worker (src/client/lib/stored-data.ts).
 * The worker is registered by src/client/app/offline-worker.ts (not the plugin's script).
 */
export function offlineWorker(): PluginOption {
  return VitePWA({
    injectRegister: null,
    registerType: 'autoUpdate',
    manifest: {
      name: 'Global Risk Dashboard',
      short_name: 'Risk',
      description: 'The global risk index, country hotspots and country pages.',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      theme_color: THEME_COLOUR,
      background_color: BACKGROUND_COLOUR,
      icons: [
        { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
        ...APP_ICONS.map((icon) => ({
          src: `/${icon.file}`,
          sizes: `${icon.size}x${icon.size}`,
          type: 'image/png',
          purpose: icon.purpose,
        })),
      ],
    },
    workbox: {
      globPatterns: ['**/*.{js,css,html,svg,png}'],
      // The page routes are answered by the BFF (its first frame); see the navigation rule below.
      navigateFallback: null,
      cleanupOutdatedCaches: true,
      clientsClaim: true,
      skipWaiting: true,
      runtimeCaching: [
        {
          // Page loads: the network (the BFF's first frame of the batch), else the shell.
          urlPattern: isPageLoad,
          handler: 'NetworkOnly',
          options: { precacheFallback: { fallbackURL: 'index.html' } },
        },
        {
          urlPattern: keepsApiAnswer,
          handler: 'NetworkFirst',
          method: 'GET',
          options: {
            cacheName: 'api-answers',
            expiration: {
              maxEntries: OFFLINE_API_ENTRIES,
              maxAgeSeconds: OFFLINE_API_MAX_AGE_SECONDS,
            },
            cacheableResponse: { statuses: [200] },
          },
        },
      ],
    },
  });
}
