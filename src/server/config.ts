import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { DEFAULT_FRESHNESS, type FreshnessPolicy } from '../shared/freshness.js';
import { Secret } from './secret.js';

/** Start-up configuration problem: one line naming the variable, never its secret value. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export const API_KEY_PATTERN = /^ar_live_[0-9a-fA-F]{64}$/;
export const DEMO_TIERS = ['Pro', 'Team', 'Enterprise', 'Custom'] as const;
export type DemoTierName = (typeof DEMO_TIERS)[number];

export type UpstreamConfig =
  | { mode: 'live'; baseUrl: string; apiKey: Secret }
  /** Demo mode: main.ts starts the demo upstream and fills in its URL and freshly issued key. */
  | { mode: 'demo'; demoTier: DemoTierName };

export interface AppConfig {
  host: string;
  port: number;
  upstream: UpstreamConfig;
  /** Where the cache persists between restarts; null keeps it in memory only (tests). */
  dataDir: string | null;
  access: {
    dashboardToken: Secret | null;
    trustedProxyAuthHeader: string | null;
    /**
     * Addresses of the proxy in front (TRUSTED_PROXY_ADDRESSES). Only connections from these may
     * vouch for a user with the proxy header or name the client in `X-Forwarded-For`. Optional
     * in the type so literal configs stay short: absent means no proxy is trusted.
     */
    trustedProxyAddresses?: string[];
    /**
     * Host names (Host header, port ignored) the BFF answers for; null accepts any. parseConfig
     * always sets it; absent (literal configs in tests) means the loopback names.
     */
    allowedHosts?: string[] | null;
    allowAnonymous: boolean;
  };
  /** Upstream requests kept back for interactive cache misses; background work stops above it. */
  quotaReserve: number;
  freshness: FreshnessPolicy;
  cacheMaxEntries: number;
  /**
   * Bound of the whole cache in memory (CACHE_MAX_MB): upstream entries get three quarters, the
   * answers rendered from them (every variant, compressed forms included) the rest.
   */
  cacheMaxBytes: number;
  /** Cache misses one client may cause per minute (hits are never limited). */
  clientMissesPerMinute: number;
  /**
   * Share of the key's hourly limit one client may spend on misses in an hour (percent), so no
   * one client, or two, can drain the budget everyone shares.
   */
  clientBudgetSharePercent: number;
  upstreamTimeouts: { connectMs: number; requestMs: number };
  /** Retries of 500/502/503/504 and network errors: full-jitter backoff from `baseDelayMs`, doubling. */
  upstreamRetry: { maxAttempts: number; maxTotalMs: number; baseDelayMs: number };
  tiles: { url: string; attribution: string } | null;
  /** Set when a TLS-terminating proxy is in front: enables HSTS and upgrade-insecure-requests. */
  behindTls: boolean;
  logLevel: string;
  /** Watchlists and alert delivery (issue 8); absent in tests that build a config by hand. */
  alerts?: AlertsConfig;
  /** The history store (issue 7); null records nothing (tests that do not need it). */
  history: HistoryConfig | null;
}

export interface AlertsConfig {
  /** WEBHOOK_ALLOW_PRIVATE: webhooks to loopback/private addresses and plain http allowed. */
  webhookAllowPrivate: boolean;
  /** SMTP_URL (smtp:// or smtps://, may hold a password) and ALERT_EMAIL_FROM: e-mail digests. */
  email: { smtpUrl: Secret; from: string } | null;
  /** ALERT_LINK_BASE_URL: the dashboard's public address, for links in e-mail and webhooks. */
  linkBase: string | null;
}

export interface HistoryConfig {
  /** PostgreSQL instead of the embedded PGlite under DATA_DIR; holds a password, so a Secret. */
  databaseUrl: Secret | null;
  /** HISTORY_RETENTION_DAYS; null keeps everything. */
  retentionDays: number | null;
}

type Env = Record<string, string | undefined>;

function nonEmpty(env: Env, name: string): string | null {
  const value = env[name]?.trim();
  return value ? value : null;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = nonEmpty(env, name);
  if (raw === null) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
  }
  return value;
}

function flag(env: Env, name: string): boolean {
  const raw = nonEmpty(env, name);
  if (raw === null) return false;
  if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be 1 or 0 (or true/false, yes/no) (got "${raw}")`);
}

function httpUrl(name: string, raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a valid URL (expected http:// or https://)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${name} must use http:// or https:// (got ${url.protocol})`);
  }
  if (url.username || url.password) {
    throw new ConfigError(`${name} must not contain credentials; use RISK_API_KEY`);
  }
  return url;
}

function readKey(env: Env): Secret | null {
  const inline = nonEmpty(env, 'RISK_API_KEY');
  const file = nonEmpty(env, 'RISK_API_KEY_FILE');
  if (inline && file) {
    throw new ConfigError('Set RISK_API_KEY or RISK_API_KEY_FILE, not both');
  }
  let key = inline;
  let source = 'RISK_API_KEY';
  if (file) {
    source = 'RISK_API_KEY_FILE';
    try {
      key = readFileSync(file, 'utf8').trim();
    } catch {
      throw new ConfigError(`RISK_API_KEY_FILE: cannot read the file ${file}`);
    }
  }
  if (key === null) return null;
  if (!API_KEY_PATTERN.test(key)) {
    throw new ConfigError(
      `${source} does not hold a valid key (expected "ar_live_" followed by 64 hexadecimal characters)`,
    );
  }
  return new Secret(key);
}

function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

function readUpstream(env: Env): UpstreamConfig {
  const baseUrl = nonEmpty(env, 'RISK_API_BASE_URL');
  const key = readKey(env);
  if (baseUrl && !key) {
    throw new ConfigError(
      'RISK_API_BASE_URL is set but RISK_API_KEY (or RISK_API_KEY_FILE) is not',
    );
  }
  if (key && !baseUrl) {
    throw new ConfigError('RISK_API_KEY is set but RISK_API_BASE_URL is not');
  }
  if (baseUrl && key) {
    const url = httpUrl('RISK_API_BASE_URL', baseUrl);
    return { mode: 'live', baseUrl: url.href.replace(/\/+$/, ''), apiKey: key };
  }
  const tier = nonEmpty(env, 'DEMO_TIER') ?? 'Pro';
  const demoTier = DEMO_TIERS.find((name) => name.toLowerCase() === tier.toLowerCase());
  if (!demoTier) {
    throw new ConfigError(`DEMO_TIER must be one of ${DEMO_TIERS.join(', ')} (got "${tier}")`);
  }
  return { mode: 'demo', demoTier };
}

/** Estimated bits of a token from its character frequencies (Shannon), times its length. */
export function tokenEntropyBits(token: string): number {
  const counts = new Map<string, number>();
  for (const c of token) counts.set(c, (counts.get(c) ?? 0) + 1);
  let perChar = 0;
  for (const n of counts.values()) perChar -= (n / token.length) * Math.log2(n / token.length);
  return perChar * token.length;
}

const MIN_TOKEN_BITS = 128;
const MIN_TOKEN_LENGTH = 32;

function readToken(env: Env): Secret | null {
  const token = nonEmpty(env, 'DASHBOARD_TOKEN');
  if (token === null) return null;
  // A guessable token is no access control: ask for what `openssl rand` gives.
  if (token.length < MIN_TOKEN_LENGTH || tokenEntropyBits(token) < MIN_TOKEN_BITS) {
    throw new ConfigError(
      `DASHBOARD_TOKEN is too easy to guess (at least ${MIN_TOKEN_LENGTH} characters and about ` +
        `${MIN_TOKEN_BITS} bits of randomness): make one with \`openssl rand -base64 32\``,
    );
  }
  return new Secret(token);
}

/** `10.0.0.5`, `::1` or a CIDR range such as `10.0.0.0/8`. */
function addressList(env: Env, name: string): string[] {
  const raw = nonEmpty(env, name);
  if (raw === null) return [];
  return raw.split(',').map((item) => {
    const value = item.trim();
    const [address = '', bits, extra] = value.split('/');
    const family = isIP(address);
    const maxBits = family === 6 ? 128 : 32;
    const validBits = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= maxBits);
    if (family === 0 || !validBits || extra !== undefined) {
      throw new ConfigError(
        `${name} must list IP addresses or CIDR ranges separated by commas (got "${value}")`,
      );
    }
    return value;
  });
}

/** The names a loopback-bound BFF answers to: DNS rebinding cannot reach it under another name. */
export const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];

function hostList(env: Env, host: string): string[] | null {
  const raw = nonEmpty(env, 'ALLOWED_HOSTS');
  if (raw === null) {
    return isLoopback(host) ? [...new Set([...LOOPBACK_NAMES, host.toLowerCase()])] : null;
  }
  if (raw === '*') return null;
  return raw.split(',').map((item) => {
    const name = item
      .trim()
      .toLowerCase()
      .replace(/^\[(.*)\]$/, '$1');
    if (!/^[a-z0-9.:-]{1,253}$/.test(name)) {
      throw new ConfigError(
        `ALLOWED_HOSTS must list host names separated by commas (got "${item}")`,
      );
    }
    return name;
  });
}

function readAccess(env: Env, host: string): AppConfig['access'] {
  const trustedProxyAuthHeader = nonEmpty(env, 'TRUSTED_PROXY_AUTH_HEADER')?.toLowerCase() ?? null;
  const trustedProxyAddresses = addressList(env, 'TRUSTED_PROXY_ADDRESSES');
  if (trustedProxyAuthHeader !== null && trustedProxyAddresses.length === 0) {
    throw new ConfigError(
      'TRUSTED_PROXY_AUTH_HEADER is set but TRUSTED_PROXY_ADDRESSES is not: name the proxy ' +
        'addresses (anyone else reaching the port could send the header and pick an identity)',
    );
  }
  const access = {
    dashboardToken: readToken(env),
    trustedProxyAuthHeader,
    trustedProxyAddresses,
    allowedHosts: hostList(env, host),
    allowAnonymous: flag(env, 'ALLOW_ANONYMOUS'),
  };
  const guarded = access.dashboardToken || access.trustedProxyAuthHeader || access.allowAnonymous;
  if (!isLoopback(host) && !guarded) {
    throw new ConfigError(
      `HOST=${host} would expose the dashboard beyond this machine without access control: ` +
        'set DASHBOARD_TOKEN or TRUSTED_PROXY_AUTH_HEADER (or ALLOW_ANONYMOUS=1 to accept the risk)',
    );
  }
  return access;
}

function readTiles(env: Env): AppConfig['tiles'] {
  const url = nonEmpty(env, 'TILE_URL');
  if (url === null) return null;
  httpUrl('TILE_URL', url.replace(/\{[a-z]\}/g, '0'));
  const attribution = nonEmpty(env, 'TILE_ATTRIBUTION');
  if (attribution === null) {
    throw new ConfigError(
      'TILE_URL is set but TILE_ATTRIBUTION is not (tile providers require it)',
    );
  }
  return { url, attribution };
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function logLevel(env: Env): string {
  const level = (nonEmpty(env, 'LOG_LEVEL') ?? 'info').toLowerCase();
  if (!LOG_LEVELS.includes(level)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${level}")`);
  }
  return level;
}

/** Parses the environment once; throws ConfigError with a single line on the first problem. */
export function parseConfig(env: Env): AppConfig {
  const host = nonEmpty(env, 'HOST') ?? '127.0.0.1';
  const staleIfErrorHours = integer(env, 'STALE_IF_ERROR_HOURS', 24, 0, 24 * 30);
  const dataDir = nonEmpty(env, 'DATA_DIR') ?? './data';
  return {
    host,
    port: integer(env, 'PORT', 3000, 0, 65535),
    upstream: readUpstream(env),
    dataDir: resolve(dataDir),
    access: readAccess(env, host),
    quotaReserve: integer(env, 'QUOTA_RESERVE', 10, 0, 1000),
    freshness: {
      ...DEFAULT_FRESHNESS,
      staleIfErrorMs: staleIfErrorHours * 3_600_000,
      ...readBatchWatch(env),
    },
    cacheMaxEntries: integer(env, 'CACHE_MAX_ENTRIES', 2000, 10, 1_000_000),
    cacheMaxBytes: integer(env, 'CACHE_MAX_MB', 256, 16, 65_536) * 1024 * 1024,
    clientMissesPerMinute: integer(env, 'CLIENT_MISSES_PER_MINUTE', 30, 1, 10_000),
    clientBudgetSharePercent: integer(env, 'CLIENT_BUDGET_SHARE_PERCENT', 20, 1, 100),
    upstreamTimeouts: {
      connectMs: integer(env, 'UPSTREAM_CONNECT_TIMEOUT_MS', 3000, 100, 60_000),
      requestMs: integer(env, 'UPSTREAM_TIMEOUT_MS', 15_000, 100, 300_000),
    },
    upstreamRetry: { maxAttempts: 3, maxTotalMs: 10_000, baseDelayMs: 250 },
    tiles: readTiles(env),
    behindTls: flag(env, 'BEHIND_TLS'),
    logLevel: logLevel(env),
    history: readHistory(env),
    alerts: readAlerts(env),
  };
}

// --- History and the batch watch (issue 7) ---

/** FRESH_SECONDS and BATCH_SCHEDULE_UTC ("03:00,10:00"): how the BFF watches for batches. */
function readBatchWatch(env: Env): Pick<FreshnessPolicy, 'freshMs' | 'batchHoursUtc'> {
  const freshMs = integer(env, 'FRESH_SECONDS', 1800, 5, 86_400) * 1000;
  const raw = nonEmpty(env, 'BATCH_SCHEDULE_UTC');
  if (raw === null) return { freshMs, batchHoursUtc: DEFAULT_FRESHNESS.batchHoursUtc };
  const hours = raw.split(',').map((item) => {
    const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(item.trim());
    if (!match) {
      throw new ConfigError(
        `BATCH_SCHEDULE_UTC must be times of day in UTC like "03:00,10:00" (got "${raw}")`,
      );
    }
    return Number(match[1]) + Number(match[2]) / 60;
  });
  return { freshMs, batchHoursUtc: [...new Set(hours)].sort((a, b) => a - b) };
}

function readHistory(env: Env): HistoryConfig {
  const url = nonEmpty(env, 'DATABASE_URL');
  if (url !== null && !/^postgres(ql)?:\/\//.test(url)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  const days = nonEmpty(env, 'HISTORY_RETENTION_DAYS');
  return {
    databaseUrl: url === null ? null : new Secret(url),
    retentionDays: days === null ? null : integer(env, 'HISTORY_RETENTION_DAYS', 0, 1, 36_500),
  };
}

// --- Watchlists and alerts (issue 8) ---

function readAlerts(env: Env): AlertsConfig {
  const smtp = nonEmpty(env, 'SMTP_URL');
  const from = nonEmpty(env, 'ALERT_EMAIL_FROM');
  if (smtp !== null && !/^smtps?:\/\/[^\s]+$/.test(smtp)) {
    throw new ConfigError('SMTP_URL must be an smtp:// or smtps:// URL');
  }
  if ((smtp === null) !== (from === null)) {
    throw new ConfigError('Set SMTP_URL and ALERT_EMAIL_FROM together (e-mail digests need both)');
  }
  if (from !== null && !/^[^\s@<>]+@[^\s@<>]+$|^[^<>]*<[^\s@<>]+@[^\s@<>]+>$/.test(from)) {
    throw new ConfigError(
      `ALERT_EMAIL_FROM must be an address such as alerts@example.com or "Risk <alerts@example.com>"`,
    );
  }
  const base = nonEmpty(env, 'ALERT_LINK_BASE_URL');
  return {
    webhookAllowPrivate: flag(env, 'WEBHOOK_ALLOW_PRIVATE'),
    email: smtp !== null && from !== null ? { smtpUrl: new Secret(smtp), from } : null,
    linkBase: base === null ? null : httpUrl('ALERT_LINK_BASE_URL', base).href.replace(/\/+$/, ''),
  };
}
