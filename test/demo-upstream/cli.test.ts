import { describe, expect, it } from 'vitest';
import { runEntry } from '../helpers/run-entry.js';

// Runs the command as `npm run demo-upstream` would (through tsx instead of a build).

function runCli(args: string[], onOutput?: (output: string, stop: () => void) => void) {
  return runEntry('src/demo-upstream/cli.ts', { args, onOutput, timeoutMs: 15_000 });
}

describe('demo upstream: the command', () => {
  it('issues a key, prints it once with the URL and a curl line, serves, and stops on SIGTERM', async () => {
    let checked: Promise<number> | undefined;
    const run = await runCli(
      ['--port', '0', '--tier', 'Custom', '--limit', '7'],
      (output, stop) => {
        const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
        const key = /RISK_API_KEY=(ar_live_[0-9a-f]{64})/.exec(output)?.[1];
        if (!url || !key || checked || !output.includes('Ctrl+C')) return;
        checked = fetch(`${url}/api/v1/hotspots?limit=1`, {
          headers: { authorization: `Bearer ${key}` },
        }).then((response) => {
          expect(response.headers.get('x-ratelimit-limit')).toBe('7');
          stop();
          return response.status;
        });
      },
    );
    expect(await checked).toBe(200);
    expect(run.code).toBe(0);
    const keys = run.output.match(/ar_live_[0-9a-f]{64}/g) ?? [];
    expect(keys).toHaveLength(1);
    expect(run.output).toMatch(
      /curl -H "Authorization: Bearer \$RISK_API_KEY" "http:\/\/127\.0\.0\.1:\d+\/api\/v1\/hotspots/,
    );
  });

  it('prints help and exits 0', async () => {
    const run = await runCli(['--help']);
    expect(run.code).toBe(0);
    for (const option of [
      '--port',
      '--tier',
      '--error-rate',
      '--latency-ms',
      '--outage',
      '--malformed-rate',
      '--batch-interval-seconds',
      '--limit',
      '--host',
    ]) {
      expect(run.output).toContain(option);
    }
  });

  it.each([
    [['--tier', 'Gold'], /--tier must be one of/],
    [['--error-rate', '2'], /--error-rate must be a number from 0 to 1/],
    [['--limit', '5'], /Custom/],
    [['--port', 'http'], /--port/],
    [['--frobnicate'], /Unknown option/],
  ])('refuses %j with a plain message and exit code 2', async (args, message) => {
    const run = await runCli(args);
    expect(run.code).toBe(2);
    expect(run.output).toMatch(message);
  });
});
