import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config.js';
import { releaseMemoryNowAndWhenQuiet } from '../release-memory.js';
import { HistoryStore } from '../store/history-store.js';
import { buildApp, type ResolvedUpstream } from './app.js';
import { resolveUpstream, seedDemoHistory } from './demo.js';

export interface ComposedProcess {
  app: FastifyInstance;
  upstream: ResolvedUpstream;
  /** Waits for the demo seed, closes the app, the store and the demo upstream; once. */
  close(): Promise<void>;
}

/**
 * What `npm start` runs, around the app: the store and the upstream (the demo's, started here,
 * when no key is configured) opened side by side, the app built on them, the demo's history
 * seeded in the background. Listening and signals stay in main.ts.
 */
export async function composeProcess(
  config: AppConfig,
  clientDir: string | null,
): Promise<ComposedProcess> {
  const [historyStore, { upstream, demo }] = await Promise.all([
    config.history
      ? HistoryStore.open({
          dataDir: config.dataDir,
          ...config.history,
          poolMax: config.replicas?.poolMax,
        })
      : Promise.resolve(undefined),
    resolveUpstream(config),
  ]);
  const app = await buildApp(config, { upstream, clientDir, historyStore });
  // Seeded after the port opens (it takes seconds on a first start); answers follow as it goes.
  let closing = false;
  const seeding =
    historyStore && upstream.mode === 'demo'
      ? seedDemoHistory(historyStore, Date.now(), () => closing).then(
          async (added) => {
            app.log.info({ added }, 'demo history seeded');
            // The sample watchlist and the alerts of the seeded history (issue 8).
            try {
              app.log.info({ alerts: await app.demoWatchlist() }, 'demo watchlist ready');
            } catch (error) {
              app.log.error({ err: error }, 'demo watchlist could not be made');
            }
            // The fictional company's sites, so /exposure has content (issue 20).
            try {
              app.log.info({ sites: await app.demoSites() }, 'demo sites ready');
            } catch (error) {
              app.log.error({ err: error }, 'demo sites could not be made');
            }
            // The seed's dead objects, freed now rather than at some later collection (issue 18).
            releaseMemoryNowAndWhenQuiet();
          },
          (error: unknown) => app.log.error({ err: error }, 'demo history could not be seeded'),
        )
      : Promise.resolve();
  // The pages answer from the seeded history: not ready until it is there (issue 29).
  app.holdReadiness(seeding, 'The demo history is still being recorded; ready in a few seconds');

  return {
    app,
    upstream,
    close: async () => {
      if (closing) return;
      closing = true;
      await seeding;
      await app.close();
      await historyStore?.close();
      await demo?.close();
    },
  };
}
