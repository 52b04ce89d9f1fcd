import { parseArgs } from 'node:util';
import { TIER_LIMITS, type DemoTier } from './auth.js';
import type { DemoFaults } from './faults.js';
import type { MethodChange } from './method-change.js';
import { startDemoUpstream } from './server.js';

// `npm run demo-upstream -- --port 4010 --tier Pro`: issue one key, print it once, serve.

const HELP = `Demo upstream: a local stand-in for the Global Risk Index API.

Usage: npm run demo-upstream -- [options]

  --port <n>                    port to listen on (default 4010; 0 picks a free one)
  --host <addr>                 address to bind (default 127.0.0.1)
  --tier <name>                 tier of the key issued at start: Pro, Team, Enterprise, Custom,
                                Free or Trial (default Pro; Free and Trial keys get 403)
  --limit <n>                   requests per hour for a Custom key (default 1000)
  --batch-interval-seconds <n>  a new batch every n seconds instead of 03:00/10:00 UTC
  --error-rate <0..1>           share of requests answered 500/502/503
  --latency-ms <n>              delay added to every request
  --malformed-rate <0..1>       share of 200 answers with a broken body
  --outage                      answer every request with 503
  --method-change <when>        the provider changes its method: from the batch at or after
                                <when> (an ISO time, or "next" for the next batch) every batch
                                has methodology_version "ggri-m 4.0" and every score x 0.6
  --adversarial-events          hostile headline and javascript: URL in Ukraine's newest event
  --log                         log requests (without the Authorization header)
  --help                        show this help
`;

class UsageError extends Error {}

function numberOption(name: string, value: string | undefined, min: number, max: number) {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isFinite(parsed) || parsed < min || parsed > max) {
    throw new UsageError(`--${name} must be a number from ${min} to ${max} (got "${value}")`);
  }
  return parsed;
}

function integerOption(name: string, value: string | undefined, min: number, max: number) {
  const parsed = numberOption(name, value, min, max);
  if (parsed !== undefined && !Number.isInteger(parsed)) {
    throw new UsageError(`--${name} must be a whole number (got "${value}")`);
  }
  return parsed;
}

/** `--method-change`: an ISO time, or `next` (a moment from now: the next batch starts after). */
function methodChangeOption(value: string | undefined): MethodChange | undefined {
  if (value === undefined) return undefined;
  if (value === 'next') return { fromMs: Date.now() + 1 };
  const fromMs = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || !Number.isFinite(fromMs)) {
    throw new UsageError(`--method-change must be an ISO time or "next" (got "${value}")`);
  }
  return { fromMs };
}

function parse(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      tier: { type: 'string' },
      limit: { type: 'string' },
      'batch-interval-seconds': { type: 'string' },
      'error-rate': { type: 'string' },
      'latency-ms': { type: 'string' },
      'malformed-rate': { type: 'string' },
      outage: { type: 'boolean' },
      'method-change': { type: 'string' },
      'adversarial-events': { type: 'boolean' },
      log: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  const tierName = values.tier ?? 'Pro';
  const tier = (Object.keys(TIER_LIMITS) as DemoTier[]).find(
    (name) => name.toLowerCase() === tierName.toLowerCase(),
  );
  if (!tier) {
    throw new UsageError(`--tier must be one of ${Object.keys(TIER_LIMITS).join(', ')}`);
  }
  const limit = integerOption('limit', values.limit, 1, 1_000_000);
  if (limit !== undefined && tier !== 'Custom') {
    throw new UsageError('--limit applies to Custom keys only (use --tier Custom)');
  }
  const faults: DemoFaults = {
    errorRate: numberOption('error-rate', values['error-rate'], 0, 1),
    latencyMs: integerOption('latency-ms', values['latency-ms'], 0, 600_000),
    malformedRate: numberOption('malformed-rate', values['malformed-rate'], 0, 1),
    outage: values.outage ?? false,
    methodChange: methodChangeOption(values['method-change']),
  };
  const interval = numberOption('batch-interval-seconds', values['batch-interval-seconds'], 1, 1e7);
  return {
    help: values.help ?? false,
    port: integerOption('port', values.port, 0, 65_535) ?? 4010,
    host: values.host ?? '127.0.0.1',
    tier,
    limit,
    faults,
    batchIntervalMs: interval === undefined ? undefined : Math.round(interval * 1000),
    adversarialEvents: values['adversarial-events'] ?? false,
    logger: values.log ?? false,
  };
}

async function main(): Promise<void> {
  let options: ReturnType<typeof parse>;
  try {
    options = parse(process.argv.slice(2));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${message}\nRun with --help for the options.\n`);
    process.exit(2);
  }
  if (options.help) {
    process.stdout.write(HELP);
    return;
  }
  const upstream = await startDemoUpstream(options);
  const key = upstream.issueKey(options.tier, { limit: options.limit });
  const perHour = options.limit ?? TIER_LIMITS[options.tier];
  const access = perHour === 0 ? 'no API access: requests get 403' : `${perHour} requests/hour`;
  // The key is printed here once and nowhere else; the examples refer to it by variable.
  process.stdout.write(
    [
      `Demo upstream listening on ${upstream.url}`,
      `API key (${options.tier}, ${access}); shown once, only its SHA-256 is kept:`,
      '',
      `  export RISK_API_KEY=${key}`,
      '',
      'Try it:',
      `  curl -H "Authorization: Bearer $RISK_API_KEY" "${upstream.url}/api/v1/hotspots?limit=5"`,
      'Point the dashboard at it:',
      `  RISK_API_BASE_URL=${upstream.url} RISK_API_KEY=$RISK_API_KEY npm start`,
      `OpenAPI description: ${upstream.url}/api/openapi.json`,
      'Press Ctrl+C to stop.',
      '',
    ].join('\n'),
  );
  let closing = false;
  const close = (): void => {
    if (closing) return;
    closing = true;
    upstream.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', close);
  process.on('SIGTERM', close);
}

main().catch((error: unknown) => {
  process.stderr.write(`Demo upstream failed: ${error instanceof Error ? error.message : error}\n`);
  process.exit(1);
});
