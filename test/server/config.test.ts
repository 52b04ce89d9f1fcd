import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/server/config.js';

const KEY = `ar_live_${'0f'.repeat(32)}`;
/** What `openssl rand -base64 32` prints. */
const STRONG_TOKEN = 'q3Jx0vTq8mZ2bYl4VdN7cR1sWk9eHu5aPf6gLi2oXy0=';

describe('parseConfig', () => {
  it('defaults to the demo upstream on loopback with a Pro key', () => {
    const config = parseConfig({});
    expect(config.server.host).toBe('127.0.0.1');
    expect(config.server.port).toBe(3000);
    expect(config.upstream).toEqual({ mode: 'demo', demoTier: 'Pro' });
    expect(config.data.freshness.staleIfErrorMs).toBe(24 * 3_600_000);
    expect(config.look.tiles).toBeNull();
  });

  it('takes a live upstream from a key file, trimming the trailing newline', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'grd-config-')), 'key');
    writeFileSync(file, `${KEY}\n`);
    const config = parseConfig({
      RISK_API_BASE_URL: 'https://risk.example.com/',
      RISK_API_KEY_FILE: file,
    });
    expect(config.upstream.mode).toBe('live');
    if (config.upstream.mode !== 'live') throw new Error('unreachable');
    expect(config.upstream.baseUrl).toBe('https://risk.example.com');
    expect(config.upstream.apiKey.reveal()).toBe(KEY);
  });

  it('never prints the key through inspect, JSON or string conversion', () => {
    const config = parseConfig({ RISK_API_BASE_URL: 'http://127.0.0.1:4010', RISK_API_KEY: KEY });
    expect(inspect(config, { depth: 10 })).not.toContain(KEY);
    expect(JSON.stringify(config)).not.toContain(KEY);
    if (config.upstream.mode !== 'live') throw new Error('unreachable');
    expect(`${config.upstream.apiKey}`).toBe('[redacted]');
  });

  it('allows a public address with an access control or an explicit opt-out', () => {
    expect(parseConfig({ HOST: '0.0.0.0', DASHBOARD_TOKEN: STRONG_TOKEN }).server.host).toBe(
      '0.0.0.0',
    );
    expect(
      parseConfig({
        HOST: '::',
        TRUSTED_PROXY_AUTH_HEADER: 'X-Forwarded-User',
        TRUSTED_PROXY_ADDRESSES: '10.0.0.5, 10.1.0.0/16,::1',
      }).access,
    ).toMatchObject({
      trustedProxyAuthHeader: 'x-forwarded-user',
      trustedProxyAddresses: ['10.0.0.5', '10.1.0.0/16', '::1'],
    });
    expect(parseConfig({ HOST: '0.0.0.0', ALLOW_ANONYMOUS: '1' }).access.allowAnonymous).toBe(true);
    expect(parseConfig({ HOST: 'localhost' }).server.host).toBe('localhost');
  });

  it('reads every tuning variable, treating blank as unset', () => {
    const config = parseConfig({
      PORT: ' ',
      CACHE_MAX_MB: '32',
      FRESH_SECONDS: '60',
      BATCH_SCHEDULE_UTC: '10:30, 03:00,10:30',
      HISTORY_RETENTION_DAYS: '90',
      DATABASE_URL: 'postgres://grd:pw@db.local/grd',
      ALLOWED_HOSTS: '*',
      LOG_LEVEL: 'WARN',
      DEMO_TIER: 'team',
    });
    expect(config.server.port).toBe(3000);
    expect(config.data.cacheMaxBytes).toBe(32 * 1024 * 1024);
    expect(config.data.freshness).toMatchObject({ freshMs: 60_000, batchHoursUtc: [3, 10.5] });
    expect(config.history?.retentionDays).toBe(90);
    expect(config.history?.databaseUrl?.reveal()).toBe('postgres://grd:pw@db.local/grd');
    expect(config.access.allowedHosts).toBeNull();
    expect(config.server.logLevel).toBe('warn');
    expect(config.upstream).toEqual({ mode: 'demo', demoTier: 'Team' });
    expect(parseConfig({}).history).toMatchObject({ databaseUrl: null, retentionDays: null });
    expect(parseConfig({ HOST: '127.0.0.2' }).access.allowedHosts).toEqual([
      'localhost',
      '127.0.0.1',
      '::1',
      '127.0.0.2',
    ]);
  });

  it('names a bad DATABASE_URL without echoing the password in it', () => {
    const env = { DATABASE_URL: 'mysql://grd:hunter2-secret@db.local/grd' };
    expect(() => parseConfig(env)).toThrow(/^DATABASE_URL must be a postgres:\/\//);
    expect(() => parseConfig(env)).not.toThrow(/hunter2/);
  });

  it('requires an attribution with a tile URL', () => {
    expect(() => parseConfig({ TILE_URL: 'https://tiles.example.com/{z}/{x}/{y}.png' })).toThrow(
      /TILE_ATTRIBUTION/,
    );
    expect(
      parseConfig({
        TILE_URL: 'https://tiles.example.com/{z}/{x}/{y}.png',
        TILE_ATTRIBUTION: '© Example',
      }).look.tiles,
    ).toEqual({ url: 'https://tiles.example.com/{z}/{x}/{y}.png', attribution: '© Example' });
  });

  it.each([
    [{ PORT: '70000' }, /PORT must be a whole number from 0 to 65535/],
    [{ PORT: '-1' }, /PORT/],
    [{ STALE_IF_ERROR_HOURS: '1.5' }, /STALE_IF_ERROR_HOURS/],
    [{ ALLOW_ANONYMOUS: 'maybe' }, /ALLOW_ANONYMOUS must be 1 or 0 \(or true\/false, yes\/no\)/],
    [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL must be one of fatal, error/],
    [{ TRUSTED_PROXY_AUTH_HEADER: 'X-User' }, /TRUSTED_PROXY_ADDRESSES is not/],
    [
      { TRUSTED_PROXY_AUTH_HEADER: 'X-User', TRUSTED_PROXY_ADDRESSES: 'proxy.local' },
      /TRUSTED_PROXY_ADDRESSES must list IP addresses/,
    ],
    [{ DASHBOARD_TOKEN: 'a'.repeat(40) }, /too easy to guess.*openssl rand -base64 32/],
    [{ DASHBOARD_TOKEN: 'correct-horse-battery-staple' }, /DASHBOARD_TOKEN is too easy to guess/],
    [{ ALLOWED_HOSTS: 'dash board' }, /ALLOWED_HOSTS must list host names/],
    [{ RISK_API_BASE_URL: 'https://user:pw@risk.example.com', RISK_API_KEY: KEY }, /credentials/],
    [{ RISK_API_BASE_URL: 'https://risk.example.com', RISK_API_KEY: `${KEY}0` }, /valid key/],
    [{ HISTORY_RETENTION_DAYS: '0' }, /^HISTORY_RETENTION_DAYS must be a whole number from 1/],
    [{ BATCH_SCHEDULE_UTC: '3am' }, /^BATCH_SCHEDULE_UTC must be times of day/],
    [{ CACHE_MAX_MB: '8' }, /^CACHE_MAX_MB must be a whole number from 16 to 65536/],
    [{ TILE_URL: 'tiles', TILE_ATTRIBUTION: 'x' }, /^TILE_URL is not a valid URL/],
    // Checked in every mode now (it was ignored with a live upstream): a typo shows at once.
    [
      { RISK_API_BASE_URL: 'https://risk.example.com', RISK_API_KEY: KEY, DEMO_TIER: 'Gold' },
      /^DEMO_TIER must be one of Pro, Team, Enterprise, Custom/,
    ],
  ])('rejects %o', (env, message) => {
    expect(() => parseConfig(env)).toThrow(ConfigError);
    expect(() => parseConfig(env)).toThrow(message);
  });
});
