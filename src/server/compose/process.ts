import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config.js';
import { releaseMemoryNowAndWhenQuiet } from '../release-memory.js';
import { buildApp, type Bff, type ResolvedUpstream } from './app.js';
import { resolveUpstream, seedDemoHistory } from './demo.js';

export interface ComposedProcess {
  app: FastifyInstance;
  upstream: ResolvedUpstream;
  /** Waits for the demo seed, closes the app (and with it the store) and the demo upstream. */
  close(): Promise<void>;
}

/**
 * What `npm start` runs, around the app: the upstream (the demo's, started here, when no key is
 * configured), the app built on it, the demo's history seeded in the background. Listening and
 * signals stay in main.ts.
 */
export async function composeProcess(
  config: AppConfig,
  clientDir: string | null,
): Promise<ComposedProcess> {
  const { upstream, demo } = await resolveUpstream(config.upstream);
  const bff = await buildApp(config, { upstream, clientDir });
  // Seeded after the port opens (it takes seconds on a first start); answers follow as it goes.
  let closing = false;
  const seeding =
    bff.store && upstream.mode === 'demo'
      ? seedDemo(bff, bff.store, () => closing)
      : Promise.resolve();
  // The pages answer from the seeded history: not ready until it is there (issue 29).
  bff.holdReadiness(seeding, 'The demo history is still being recorded; ready in a few seconds');
  return {
    app: bff.app,
    upstream,
    close: async () => {
      if (closing) return;
      closing = true;
      await seeding;
      await bff.app.close();
      await demo?.close();
    },
  };
}

/** Demo mode: 90 days of history, the sample watchlist and its alerts, the company's sites. */
async function seedDemo(
  bff: Bff,
  store: NonNullable<Bff['store']>,
  stopping: () => boolean,
): Promise<void> {
  const log = bff.app.log;
  try {
    log.info({ added: await seedDemoHistory(store, Date.now(), stopping) }, 'demo history seeded');
  } catch (error) {
    log.error({ err: error }, 'demo history could not be seeded');
    return;
  }
  try {
    log.info({ alerts: await bff.demoWatchlist() }, 'demo watchlist ready');
  } catch (error) {
    log.error({ err: error }, 'demo watchlist could not be made');
  }
  try {
    log.info({ sites: await bff.demoSites() }, 'demo sites ready');
  } catch (error) {
    log.error({ err: error }, 'demo sites could not be made');
  }
  // The seed's dead objects, freed now rather than at some later collection (issue 18).
  releaseMemoryNowAndWhenQuiet();
}
