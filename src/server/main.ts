import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { composeProcess } from './compose/process.js';
import { ConfigError, parseConfig, type AppConfig } from './config.js';
import { errorWords } from './safe-error.js';

// Entry point: read config, call the composition root, listen, close gracefully. Nothing else.

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

async function main(): Promise<void> {
  const config = readConfig();
  for (const warning of config.warnings)
    process.stderr.write(`Configuration warning: ${warning}\n`);
  const { app, upstream, close } = await composeProcess(config, clientDir);

  let closing = false;
  const shutDown = async (signal: string): Promise<void> => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    await close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutDown('SIGINT'));
  process.on('SIGTERM', () => void shutDown('SIGTERM'));

  // The address actually bound (PORT=0 picks a free port).
  const where = await app.listen({ host: config.server.host, port: config.server.port });
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
