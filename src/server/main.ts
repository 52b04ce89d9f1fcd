import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pastBatches } from '../demo-upstream/history-seed.js';
import { startDemoUpstream, type DemoUpstream } from '../demo-upstream/server.js';
import { buildApp, type ResolvedUpstream } from './app.js';
import { ConfigError, parseConfig, type AppConfig } from './config.js';
import { errorWords } from './safe-error.js';
import { releaseMemory, releaseMemoryNowAndWhenQuiet } from './release-memory.js';
import { Secret } from './secret.js';
import { HistoryStore } from './store/history-store.js';

// Entry point: read config, start, close gracefully. Nothing else lives here.

const here = dirname(fileURLToPath(import.meta.url));
// Compiled to dist/node/server/main.js; the SPA is built to dist/client.
const clientDir = resolve(here, '../../client');

function readConfig(): AppConfig {
  try {
    return parseConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}

async function resolveUpstream(
  config: AppConfig,
): Promise<{ upstream: ResolvedUpstream; demo: DemoUpstream | null }> {
  if (config.upstream.mode === 'live') {
    const { baseUrl, apiKey } = config.upstream;
    return { upstream: { mode: 'live', baseUrl, apiKey }, demo: null };
  }
  // No key configured: run our stand-in for the Risk API on a loopback port and talk to it over
  // HTTP exactly as to the real service, with a freshly issued key of the configured tier.
  const demo = await startDemoUpstream({ host: '127.0.0.1', port: 0 });
  const apiKey = new Secret(demo.issueKey(config.upstream.demoTier));
  return { upstream: { mode: 'demo', baseUrl: demo.url, apiKey }, demo };
}

// Demo mode: 90 days of past batches (two a day) from the demo generator, marked demo, so trends
// and "What changed" show on first start. Idempotent: a restart generates only what is missing.
const SEED_BATCHES = 180;
const SEED_BATCHES_PER_COLLECTION = 10;

async function seedDemoHistory(
  store: HistoryStore,
  now: number,
  stopping: () => boolean,
): Promise<number> {
  const have = await store.batches({ from: new Date(now - 100 * 86_400_000), to: null });
  const recorded = new Set(have.filter((b) => b.countryCount > 0).map((b) => b.asOf.getTime()));
  let added = 0;
  for (const batch of pastBatches(now, SEED_BATCHES, { wanted: (t) => !recorded.has(t) })) {
    if (stopping()) break;
    // PGlite runs queries synchronously and settles them as microtasks: without a turn of the
    // event loop between batches, the seed would starve every socket for its whole duration.
    await new Promise((done) => setImmediate(done));
    await store.recordBatch({
      asOf: new Date(batch.asOf),
      methodologyVersion: batch.methodologyVersion,
      global: batch.global,
      source: 'demo_seed',
      demo: true,
      countries: batch.countries,
    });
    added += 1;
    // A seed's dead objects freed as it goes, so the heap never grows to hold them (issue 18).
    if (added % SEED_BATCHES_PER_COLLECTION === 0) releaseMemory();
  }
  return added;
}

async function main(): Promise<void> {
  const config = readConfig();
  const [historyStore, { upstream, demo }] = await Promise.all([
    config.history
      ? HistoryStore.open({
          dataDir: config.dataDir,
          ...config.history,
          poolMax: config.cluster?.poolMax,
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
            // The seed's dead objects, freed now rather than at some later collection (issue 18).
            releaseMemoryNowAndWhenQuiet();
          },
          (error: unknown) => app.log.error({ err: error }, 'demo history could not be seeded'),
        )
      : Promise.resolve();

  const close = async (signal: string): Promise<void> => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    await seeding;
    await app.close();
    await historyStore?.close();
    await demo?.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void close('SIGINT'));
  process.on('SIGTERM', () => void close('SIGTERM'));

  // The address actually bound (PORT=0 picks a free port).
  const where = await app.listen({ host: config.host, port: config.port });
  const banner = `Global Risk Dashboard at ${where}${upstream.mode === 'demo' ? ' (Demo data)' : ''}`;
  app.log.info(
    {
      mode: upstream.mode,
      tier: config.upstream.mode === 'demo' ? config.upstream.demoTier : null,
    },
    banner,
  );
  // The log is JSON for machines; people starting it want one plain line to click.
  process.stdout.write(`\n  ${banner}\n\n`);
}

// Whatever was thrown (an Error, PGlite's file-system ErrnoError, a string): one line of words.
main().catch((error: unknown) => {
  process.stderr.write(`Start-up failed: ${errorWords(error)}\n`);
  process.exit(1);
});
