import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { hostname } from 'node:os';
import { DEFAULT_FRESHNESS, type FreshnessPolicy } from '../shared/freshness.js';
import { z } from 'zod';
import {
  readOidc,
  readRoleMapping,
  type OidcConfig,
  type RoleMapping,
  type SessionLifetimes,
} from './config-oidc.js';
import { Secret } from './secret.js';
import type { HistoryQuestionLimits } from './history-question-limit.js';
import type { StoreQueryLimits } from './store-query-limit.js';
import { guessingBits } from './token-strength.js';

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
    /** OpenID Connect sign-in (issue 21); absent or null: none. */
    oidc?: OidcConfig | null;
    /** TRUSTED_PROXY_GROUPS_HEADER: the proxy's header listing a person's groups (roles). */
    trustedProxyGroupsHeader?: string | null;
    /** OIDC_EDITORS / OIDC_ADMINS, for the OIDC role claim and the proxy's groups header. */
    roles?: RoleMapping;
    /** How long a signed-in person's session lasts (absent: 8 h idle, 7 d in all). */
    sessionLifetimes?: SessionLifetimes;
    /** AUDIT_RETENTION_DAYS: how long the audit log keeps an entry (absent: 365). */
    auditRetentionDays?: number;
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
  /**
   * History and event-archive questions answered from the store (no upstream request): per
   * client and minute, running at once, and waiting for a slot (issue 18).
   */
  storeQueries: StoreQueryLimits;
  /**
   * Every history and event-archive question, held or not: each client's budget of cost (by
   * answer size) and questions at once, and answers built at once process-wide (issue 18).
   */
  historyQuestions: HistoryQuestionLimits;
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
  /** Replicas sharing one PostgreSQL (issue 9): set exactly when DATABASE_URL is. */
  replicas?: ReplicasConfig | null;
}

export interface ReplicasConfig {
  /** REPLICA_NAME: how this process names itself in logs and /api/status. */
  replicaName: string;
  /** LEADER_LEASE_SECONDS: a dead leader is replaced within about 1.5 times this. */
  leaseSeconds: number;
  /** DATABASE_POOL_MAX: connections this replica opens (plus one that listens). */
  poolMax: number;
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
type Ctx = z.RefinementCtx;

/**
 * Records the problem as the issue's message (already one line naming the variable, never a
 * secret's value) and stops this variable's parse.
 */
function fail(ctx: Ctx, message: string): never {
  ctx.addIssue({ code: 'custom', message });
  return z.NEVER;
}

/** An unset or blank variable is null: `PORT=` in a compose file means "the default". */
const text = z
  .string()
  .optional()
  .transform((value) => value?.trim() || null);

/** A whole number in range; `fallback` when unset (null: no default, the value stays null). */
function integer<F extends number | null>(name: string, fallback: F, min: number, max: number) {
  return text.transform((raw, ctx): number | F => {
    if (raw === null) return fallback;
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || value < min || value > max) {
      return fail(ctx, `${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
    }
    return value;
  });
}

function flag(name: string) {
  return text.transform((raw, ctx) => {
    if (raw === null) return false;
    if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
    if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
    return fail(ctx, `${name} must be 1 or 0 (or true/false, yes/no) (got "${raw}")`);
  });
}

function oneOf<const T extends readonly string[]>(name: string, names: T, fallback: T[number]) {
  return text.transform((raw, ctx): T[number] => {
    const wanted = (raw ?? fallback).toLowerCase();
    const found = names.find((item) => item.toLowerCase() === wanted);
    return found ?? fail(ctx, `${name} must be one of ${names.join(', ')} (got "${raw}")`);
  });
}

/** Null when fine, else the one-line problem (the URL may hold a password: never echoed). */
function httpUrlProblem(name: string, raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `${name} is not a valid URL (expected http:// or https://)`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `${name} must use http:// or https:// (got ${url.protocol})`;
  }
  if (url.username || url.password) {
    return `${name} must not contain credentials; use RISK_API_KEY`;
  }
  return null;
}

function httpUrl(name: string) {
  return text.transform((raw, ctx) => {
    if (raw === null) return null;
    const problem = httpUrlProblem(name, raw);
    return problem === null ? raw : fail(ctx, problem);
  });
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

const dashboardToken = text.transform((token, ctx) => {
  if (token === null) return null;
  // A guessable token is no access control: ask for what `openssl rand` gives. Sequences,
  // repeats, keyboard rows and words are counted as a guesser would try them (token-strength.ts).
  const why =
    token.length < MIN_TOKEN_LENGTH
      ? `it has ${token.length} characters`
      : tokenEntropyBits(token) < MIN_TOKEN_BITS
        ? 'it uses too few different characters'
        : guessingBits(token) < MIN_TOKEN_BITS
          ? 'it is built from sequences, repeats, keyboard rows or common words'
          : null;
  if (why !== null) {
    return fail(
      ctx,
      `DASHBOARD_TOKEN is too easy to guess (${why}; at least ${MIN_TOKEN_LENGTH} random ` +
        `characters, about ${MIN_TOKEN_BITS} bits, are needed): make one with \`openssl rand -base64 32\``,
    );
  }
  return new Secret(token);
});

/** `10.0.0.5`, `::1` or a CIDR range such as `10.0.0.0/8`. */
function addressList(name: string) {
  return text.transform((raw, ctx) => {
    if (raw === null) return [];
    const values = raw.split(',').map((item) => item.trim());
    for (const value of values) {
      const [address = '', bits, extra] = value.split('/');
      const family = isIP(address);
      const maxBits = family === 6 ? 128 : 32;
      const validBits = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= maxBits);
      if (family === 0 || !validBits || extra !== undefined) {
        return fail(
          ctx,
          `${name} must list IP addresses or CIDR ranges separated by commas (got "${value}")`,
        );
      }
    }
    return values;
  });
}

/** ALLOWED_HOSTS: null when unset (the default depends on HOST), '*' for any, else the names. */
const allowedHosts = text.transform((raw, ctx): string[] | '*' | null => {
  if (raw === null || raw === '*') return raw;
  const names = raw.split(',').map((item) => ({
    item,
    name: item
      .trim()
      .toLowerCase()
      .replace(/^\[(.*)\]$/, '$1'),
  }));
  const bad = names.find(({ name }) => !/^[a-z0-9.:-]{1,253}$/.test(name));
  if (bad) {
    return fail(ctx, `ALLOWED_HOSTS must list host names separated by commas (got "${bad.item}")`);
  }
  return names.map(({ name }) => name);
});

/** FRESH_SECONDS and BATCH_SCHEDULE_UTC ("03:00,10:00"): how the BFF watches for batches. */
const batchSchedule = text.transform((raw, ctx) => {
  if (raw === null) return DEFAULT_FRESHNESS.batchHoursUtc;
  const hours: number[] = [];
  for (const item of raw.split(',')) {
    const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(item.trim());
    if (!match) {
      return fail(
        ctx,
        `BATCH_SCHEDULE_UTC must be times of day in UTC like "03:00,10:00" (got "${raw}")`,
      );
    }
    hours.push(Number(match[1]) + Number(match[2]) / 60);
  }
  return [...new Set(hours)].sort((a, b) => a - b);
});

const databaseUrl = text.transform((url, ctx) => {
  if (url === null) return null;
  if (!/^postgres(ql)?:\/\//.test(url)) {
    return fail(ctx, 'DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  return new Secret(url);
});

// Watchlists and alerts (issue 8): e-mail digests.
const SENDER = /^[^\s@<>]+@[^\s@<>]+$|^[^<>]*<[^\s@<>]+@[^\s@<>]+>$/;

const smtpUrl = text.transform((url, ctx) => {
  if (url === null) return null;
  // The URL usually holds a password: never echoed.
  if (!/^smtps?:\/\/[^\s]+$/.test(url))
    return fail(ctx, 'SMTP_URL must be an smtp:// or smtps:// URL');
  return new Secret(url);
});

const emailFrom = text.transform((from, ctx) => {
  if (from === null || SENDER.test(from)) return from;
  return fail(
    ctx,
    'ALERT_EMAIL_FROM must be an address such as alerts@example.com or "Risk <alerts@example.com>"',
  );
});

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * Every variable the BFF reads, each parsed on its own; the checks that involve several of them
 * (key and base URL together, access control off loopback) follow in `toAppConfig`. Keys are in
 * the order their problems are reported (the first one wins).
 */
const environmentSchema = z.object({
  HOST: text.transform((host) => host ?? '127.0.0.1'),
  PORT: integer('PORT', 3000, 0, 65535),
  RISK_API_BASE_URL: httpUrl('RISK_API_BASE_URL'),
  RISK_API_KEY: text,
  RISK_API_KEY_FILE: text,
  DEMO_TIER: oneOf('DEMO_TIER', DEMO_TIERS, 'Pro'),
  DATA_DIR: text.transform((dir) => resolve(dir ?? './data')),
  DASHBOARD_TOKEN: dashboardToken,
  TRUSTED_PROXY_AUTH_HEADER: text.transform((name) => name?.toLowerCase() ?? null),
  TRUSTED_PROXY_ADDRESSES: addressList('TRUSTED_PROXY_ADDRESSES'),
  TRUSTED_PROXY_GROUPS_HEADER: text.transform((name) => name?.toLowerCase() ?? null),
  OIDC_ISSUER_URL: text,
  OIDC_CLIENT_ID: text,
  OIDC_CLIENT_SECRET: text,
  OIDC_CLIENT_SECRET_FILE: text,
  OIDC_REDIRECT_URL: text,
  OIDC_ROLE_CLAIM: text,
  OIDC_SCOPES: text,
  OIDC_EDITORS: text,
  OIDC_ADMINS: text,
  OIDC_ALLOWED_EMAIL_DOMAINS: text,
  SESSION_IDLE_HOURS: integer('SESSION_IDLE_HOURS', 8, 1, 24 * 30),
  SESSION_MAX_DAYS: integer('SESSION_MAX_DAYS', 7, 1, 365),
  AUDIT_RETENTION_DAYS: integer('AUDIT_RETENTION_DAYS', 365, 1, 36_500),
  ALLOWED_HOSTS: allowedHosts,
  ALLOW_ANONYMOUS: flag('ALLOW_ANONYMOUS'),
  QUOTA_RESERVE: integer('QUOTA_RESERVE', 10, 0, 1000),
  STALE_IF_ERROR_HOURS: integer('STALE_IF_ERROR_HOURS', 24, 0, 24 * 30),
  FRESH_SECONDS: integer('FRESH_SECONDS', 1800, 5, 86_400),
  BATCH_SCHEDULE_UTC: batchSchedule,
  CACHE_MAX_ENTRIES: integer('CACHE_MAX_ENTRIES', 2000, 10, 1_000_000),
  CACHE_MAX_MB: integer('CACHE_MAX_MB', 256, 16, 65_536),
  CLIENT_MISSES_PER_MINUTE: integer('CLIENT_MISSES_PER_MINUTE', 30, 1, 10_000),
  CLIENT_BUDGET_SHARE_PERCENT: integer('CLIENT_BUDGET_SHARE_PERCENT', 20, 1, 100),
  STORE_QUERIES_PER_MINUTE: integer('STORE_QUERIES_PER_MINUTE', 60, 1, 100_000),
  STORE_QUERIES_IN_FLIGHT: integer('STORE_QUERIES_IN_FLIGHT', 2, 1, 64),
  STORE_QUERY_QUEUE: integer('STORE_QUERY_QUEUE', 50, 0, 10_000),
  HISTORY_COST_PER_MINUTE: integer('HISTORY_COST_PER_MINUTE', 120, 1, 1_000_000),
  HISTORY_QUESTIONS_PER_CLIENT: integer('HISTORY_QUESTIONS_PER_CLIENT', 2, 1, 64),
  HISTORY_QUEUE_PER_CLIENT: integer('HISTORY_QUEUE_PER_CLIENT', 8, 0, 1000),
  HISTORY_QUESTIONS_IN_FLIGHT: integer('HISTORY_QUESTIONS_IN_FLIGHT', 2, 1, 64),
  UPSTREAM_CONNECT_TIMEOUT_MS: integer('UPSTREAM_CONNECT_TIMEOUT_MS', 3000, 100, 60_000),
  UPSTREAM_TIMEOUT_MS: integer('UPSTREAM_TIMEOUT_MS', 15_000, 100, 300_000),
  TILE_URL: text,
  TILE_ATTRIBUTION: text,
  BEHIND_TLS: flag('BEHIND_TLS'),
  LOG_LEVEL: oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
  DATABASE_URL: databaseUrl,
  HISTORY_RETENTION_DAYS: integer('HISTORY_RETENTION_DAYS', null, 1, 36_500),
  SMTP_URL: smtpUrl,
  ALERT_EMAIL_FROM: emailFrom,
  WEBHOOK_ALLOW_PRIVATE: flag('WEBHOOK_ALLOW_PRIVATE'),
  ALERT_LINK_BASE_URL: httpUrl('ALERT_LINK_BASE_URL'),
  REPLICA_NAME: text.transform((name, ctx) => {
    if (name !== null && !/^[A-Za-z0-9._-]{1,64}$/.test(name)) {
      return fail(ctx, 'REPLICA_NAME must be 1 to 64 letters, digits, dots, dashes or underscores');
    }
    return name;
  }),
  LEADER_LEASE_SECONDS: integer('LEADER_LEASE_SECONDS', 15, 3, 60),
  DATABASE_POOL_MAX: integer('DATABASE_POOL_MAX', 10, 2, 100),
});

type Environment = z.output<typeof environmentSchema>;

function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

/** The names a loopback-bound BFF answers to: DNS rebinding cannot reach it under another name. */
export const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];

/** The key from RISK_API_KEY or the file RISK_API_KEY_FILE names, checked against the pattern. */
function readKey(env: Environment): Secret | null {
  const { RISK_API_KEY: inline, RISK_API_KEY_FILE: file } = env;
  if (inline && file) throw new ConfigError('Set RISK_API_KEY or RISK_API_KEY_FILE, not both');
  let key = inline;
  if (file) {
    try {
      key = readFileSync(file, 'utf8').trim();
    } catch {
      throw new ConfigError(`RISK_API_KEY_FILE: cannot read the file ${file}`);
    }
  }
  if (key === null) return null;
  if (!API_KEY_PATTERN.test(key)) {
    throw new ConfigError(
      `${file ? 'RISK_API_KEY_FILE' : 'RISK_API_KEY'} does not hold a valid key ` +
        '(expected "ar_live_" followed by 64 hexadecimal characters)',
    );
  }
  return new Secret(key);
}

function readUpstream(env: Environment): UpstreamConfig {
  const baseUrl = env.RISK_API_BASE_URL;
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
    return { mode: 'live', baseUrl: new URL(baseUrl).href.replace(/\/+$/, ''), apiKey: key };
  }
  return { mode: 'demo', demoTier: env.DEMO_TIER };
}

function readAccess(env: Environment): AppConfig['access'] {
  const host = env.HOST;
  if (env.TRUSTED_PROXY_AUTH_HEADER !== null && env.TRUSTED_PROXY_ADDRESSES.length === 0) {
    throw new ConfigError(
      'TRUSTED_PROXY_AUTH_HEADER is set but TRUSTED_PROXY_ADDRESSES is not: name the proxy ' +
        'addresses (anyone else reaching the port could send the header and pick an identity)',
    );
  }
  if (env.TRUSTED_PROXY_GROUPS_HEADER !== null && env.TRUSTED_PROXY_AUTH_HEADER === null) {
    throw new ConfigError(
      'TRUSTED_PROXY_GROUPS_HEADER is set but TRUSTED_PROXY_AUTH_HEADER is not (groups belong to the person the proxy names)',
    );
  }
  if (env.SESSION_IDLE_HOURS > env.SESSION_MAX_DAYS * 24) {
    throw new ConfigError('SESSION_IDLE_HOURS must not be longer than SESSION_MAX_DAYS');
  }
  const oidc = readOidc(oidcSettings(env), (message) => {
    throw new ConfigError(message);
  });
  const defaultHosts = isLoopback(host)
    ? [...new Set([...LOOPBACK_NAMES, host.toLowerCase()])]
    : null;
  const access = {
    dashboardToken: env.DASHBOARD_TOKEN,
    trustedProxyAuthHeader: env.TRUSTED_PROXY_AUTH_HEADER,
    trustedProxyAddresses: env.TRUSTED_PROXY_ADDRESSES,
    allowedHosts:
      env.ALLOWED_HOSTS === null
        ? defaultHosts
        : env.ALLOWED_HOSTS === '*'
          ? null
          : env.ALLOWED_HOSTS,
    allowAnonymous: env.ALLOW_ANONYMOUS,
    oidc,
    trustedProxyGroupsHeader: env.TRUSTED_PROXY_GROUPS_HEADER,
    roles: readRoleMapping(oidcSettings(env)),
    sessionLifetimes: {
      idleMs: env.SESSION_IDLE_HOURS * 3_600_000,
      absoluteMs: env.SESSION_MAX_DAYS * 86_400_000,
    },
    auditRetentionDays: env.AUDIT_RETENTION_DAYS,
  };
  const guarded =
    access.dashboardToken || access.trustedProxyAuthHeader || oidc || access.allowAnonymous;
  if (!isLoopback(host) && !guarded) {
    throw new ConfigError(
      `HOST=${host} would expose the dashboard beyond this machine without access control: ` +
        'set OIDC_ISSUER_URL, DASHBOARD_TOKEN or TRUSTED_PROXY_AUTH_HEADER (or ALLOW_ANONYMOUS=1 to accept the risk)',
    );
  }
  return access;
}

/** The OIDC_* settings as text, for config-oidc.ts. */
function oidcSettings(env: Environment): Record<string, string | null> {
  return Object.fromEntries(
    Object.entries(env).filter(([name]) => name.startsWith('OIDC_')),
  ) as Record<string, string | null>;
}

function readTiles(env: Environment): AppConfig['tiles'] {
  const url = env.TILE_URL;
  if (url === null) return null;
  const problem = httpUrlProblem('TILE_URL', url.replace(/\{[a-z]\}/g, '0'));
  if (problem !== null) throw new ConfigError(problem);
  if (env.TILE_ATTRIBUTION === null) {
    throw new ConfigError(
      'TILE_URL is set but TILE_ATTRIBUTION is not (tile providers require it)',
    );
  }
  return { url, attribution: env.TILE_ATTRIBUTION };
}

function toAppConfig(env: Environment): AppConfig {
  return {
    host: env.HOST,
    port: env.PORT,
    upstream: readUpstream(env),
    dataDir: env.DATA_DIR,
    access: readAccess(env),
    quotaReserve: env.QUOTA_RESERVE,
    freshness: {
      ...DEFAULT_FRESHNESS,
      staleIfErrorMs: env.STALE_IF_ERROR_HOURS * 3_600_000,
      freshMs: env.FRESH_SECONDS * 1000,
      batchHoursUtc: env.BATCH_SCHEDULE_UTC,
    },
    cacheMaxEntries: env.CACHE_MAX_ENTRIES,
    cacheMaxBytes: env.CACHE_MAX_MB * 1024 * 1024,
    clientMissesPerMinute: env.CLIENT_MISSES_PER_MINUTE,
    clientBudgetSharePercent: env.CLIENT_BUDGET_SHARE_PERCENT,
    storeQueries: {
      perClientPerMinute: env.STORE_QUERIES_PER_MINUTE,
      inFlight: env.STORE_QUERIES_IN_FLIGHT,
      queue: env.STORE_QUERY_QUEUE,
    },
    historyQuestions: {
      costPerMinute: env.HISTORY_COST_PER_MINUTE,
      perClientInFlight: env.HISTORY_QUESTIONS_PER_CLIENT,
      perClientQueue: env.HISTORY_QUEUE_PER_CLIENT,
      inFlight: env.HISTORY_QUESTIONS_IN_FLIGHT,
    },
    upstreamTimeouts: {
      connectMs: env.UPSTREAM_CONNECT_TIMEOUT_MS,
      requestMs: env.UPSTREAM_TIMEOUT_MS,
    },
    upstreamRetry: { maxAttempts: 3, maxTotalMs: 10_000, baseDelayMs: 250 },
    tiles: readTiles(env),
    behindTls: env.BEHIND_TLS,
    logLevel: env.LOG_LEVEL,
    history: { databaseUrl: env.DATABASE_URL, retentionDays: env.HISTORY_RETENTION_DAYS },
    alerts: readAlerts(env),
    replicas: env.DATABASE_URL
      ? {
          replicaName: env.REPLICA_NAME ?? `${hostname()}-${process.pid}`,
          leaseSeconds: env.LEADER_LEASE_SECONDS,
          poolMax: env.DATABASE_POOL_MAX,
        }
      : null,
  };
}

/** Parses the environment once; throws ConfigError with a single line on the first problem. */
export function parseConfig(env: Env): AppConfig {
  const parsed = environmentSchema.safeParse(env);
  if (!parsed.success) {
    // Every message was written above: one line, naming the variable, never a secret's value.
    throw new ConfigError(parsed.error.issues[0]?.message ?? 'the configuration is not valid');
  }
  return toAppConfig(parsed.data);
}

// --- Watchlists and alerts (issue 8) ---

function readAlerts(env: Environment): AlertsConfig {
  const { SMTP_URL: smtp, ALERT_EMAIL_FROM: from, ALERT_LINK_BASE_URL: base } = env;
  if ((smtp === null) !== (from === null)) {
    throw new ConfigError('Set SMTP_URL and ALERT_EMAIL_FROM together (e-mail digests need both)');
  }
  return {
    webhookAllowPrivate: env.WEBHOOK_ALLOW_PRIVATE,
    email: smtp !== null && from !== null ? { smtpUrl: smtp, from } : null,
    linkBase: base === null ? null : new URL(base).href.replace(/\/+$/, ''),
  };
}
