import react from '@vitejs/plugin-react';
import { appIcons } from './scripts/vite/app-icons.ts';
import { commonCountryNames } from './scripts/vite/common-country-names.ts';
import { offlineWorker } from './scripts/vite/offline-worker.ts';
import { tierColours } from './scripts/vite/tier-colours.ts';
import { worldShapes } from './scripts/vite/world-shapes.ts';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * React Router 7's package points every import at its development build, whose only difference
 * is `ENABLE_DEV_WARNINGS = true`: its warning checks then run, and ship, in the built SPA
 * (remix-run/react-router#14102, open). The build takes the production twin instead; `vite`
 * in development keeps the warnings.
 */
const productionRouter = {
  find: /^react-router$/,
  replacement: fileURLToPath(
    new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url),
  ),
};

// The SPA only. The BFF serves `dist/client` in production; in development Vite proxies the API
// to a BFF started with `npm start` (the key stays in the BFF either way).
export default defineConfig(({ command }) => ({
  resolve: { alias: command === 'build' ? [productionRouter] : [] },
  plugins: [
    react(),
    commonCountryNames(),
    worldShapes(),
    tierColours(),
    appIcons(),
    offlineWorker(),
  ],
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 700,
    rollupOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              // What every page runs first, in one file: the libraries the shell renders with
              // and the app modules that lazily loaded chunks share with it. Left to itself the
              // bundler splits these into four small files, and the browser's six connections
              // per host (HTTP/1.1, the BFF without TLS) then also carry the three preloaded
              // data requests and the stylesheet: requests waited for a free connection.
              // lib/zod-config.ts is here so that it runs before the schemas below it are built;
              // lib/use-media-query.ts, shared by the map and lazy chunks, would be a file alone;
              // so would page-data, tiers, tier-scale and user-text (the entry's, shared with the
              // map's and the sites' chunks): four more requests before the first render.
              // The header's unread count brings alerts-api, and the person's language (read as
              // the app starts) person-settings-api and lib/api-write, which the lazy pages
              // share: more files alone. The inbox's schemas (alert-triage-api) are the alerts
              // pages' own, out of the first screen's JavaScript.
              // The method-change caveat (issue 31) is on the overview's movers strip and on the
              // lazy pages: alone it was one more file before the first render.
              // So is lib/person-name.ts (who wrote a note, issue 31: the search palette and the
              // lazy pages), with shared/open-access.ts, kept apart from roles.ts and its zod.
              // lib/use-latest.ts, shared by the map's chunk and lazy pages, would be a file alone;
              // so would lib/print-events.ts (the map's print fit and the deferred trend charts),
              // and lib/risk-index and lib/recorded-batches, which app/start-page shares with the
              // country page (its recorded change, asked for as the app starts);
              // lib/use-staged-steps.ts, the map's drawing in steps, would be a second world-map
              // file.
              name: 'vendor',
              test: new RegExp(
                [
                  // i18next and the English catalogue (issue 34): every first render speaks
                  // them. The other languages are chunks of their own, fetched when needed
                  // (lib/i18n.ts), with their parts in fr/, es/ and ar/ (an area's messages,
                  // e.g. fr/watchlists.ts); what the BFF sends (outputs/) is never the SPA's.
                  String.raw`node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack|zod|i18next|react-i18next)[\\/]`,
                  String.raw`src[\\/]shared[\\/]i18n[\\/](?!(fr|es|ar)(\.ts|[\\/])|outputs[\\/])`,
                  String.raw`src[\\/]shared[\\/](schemas[\\/]|bff-api|history-api|page-data|hotspot-limits|tiers|tier-scale|user-text|alerts-api|person-settings-api|open-access)`,
                  String.raw`src[\\/]client[\\/]lib[\\/](api-client|api-write|format|i18n|use-media-query|zod-config|tier-scale|as-of|headline-change-text|method-caveat|person-name|use-latest|print-events|risk-index|recorded-batches|use-staged-steps)`,
                  String.raw`src[\\/]client[\\/]components[\\/](skeleton|query-error|method-caveat)`,
                ].join('|'),
              ),
            },
            {
              // The world map with Leaflet, in one file (with one stylesheet) rather than three:
              // the overview asks for it as it starts (app/start-page.ts), and each request
              // costs the browser time on the 2-core machines the bench runs on. The shapes
              // stay their own chunk (their budget, scripts/check-budgets.mjs). Nothing the
              // entry imports may match, or the entry would load Leaflet up front.
              name: 'world-map',
              test: (id: string) =>
                /node_modules[\\/](leaflet|react-leaflet|@react-leaflet)[\\/]/.test(id) ||
                (/src[\\/]client[\\/]features[\\/]map[\\/](components|utils)[\\/]/.test(id) &&
                  // The sites layer stays its own chunk, loaded when switched on: inside the group
                  // it took supercluster and the sites' schemas into the overview's start. The
                  // URL's two map parameters are read by the page for the map (hooks/use-map-url),
                  // so they are the entry's.
                  !/(world-shapes|sites-layer|site-clusters|site-icon|sites-param|map-view-param)\.tsx?$/.test(
                    id,
                  )) ||
                // The map's own loader of the sites layer: outside the group it left a second,
                // tiny world-map file (a re-export) that the start had to fetch first.
                /src[\\/]client[\\/]features[\\/]map[\\/]api[\\/]sites-layer-chunk\.ts$/.test(id) ||
                // The first view and marker sizes the server's frame shares: outside the group it
                // was a second world-map file importing the first, which imported it back, and the
                // map read its bounds before that file had run (no view, nothing drawn).
                /src[\\/]shared[\\/]world-view\.ts$/.test(id),
              // Only what matches: the modules these import are the entry's or the vendor's.
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
}));
