import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { hostname } from 'node:os';
import { DEFAULT_FRESHNESS, type FreshnessPolicy } from '../shared/freshness.js';
import {
  readOidc,
  readRoleMapping,
  type OidcConfig,
  type RoleMapping,
  type SessionLifetimes,
} from './config-oidc.js';
import {
  ConfigError,
  deprecationWarnings,
  environmentSchema,
  httpUrlProblem,
  withCredentials,
  type DemoTierName,
  type Env,
  type Environment,
} from './config-env.js';
import { Secret } from './secret.js';
import type { StoreQuestionLimits } from './store-question-limit.js';

export { ConfigError, DEMO_TIERS, tokenEntropyBits, type DemoTierName } from './config-env.js';

/*
 * The settings, one slice per part: the composition root hands each part its own slice
 * (`config.data` to the data part, `config.history` to the history, …) and nothing else, so a
 * part's settings are read in one place. Grouped as an operator decides them (README, Settings).
 */

export const API_KEY_PATTERN = /^ar_live_[0-9a-fA-F]{64}$/;

/** The names a loopback-bound BFF answers to: DNS rebinding cannot reach it under another name. */
export const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];

export type UpstreamConfig =
  | { mode: 'live'; baseUrl: string; apiKey: Secret }
  /** Demo mode: compose/demo.ts starts the demo upstream and fills in its URL and a fresh key. */
  | { mode: 'demo'; demoTier: DemoTierName };

/** The process itself: where it listens, what it logs, where its files are. */
export interface ServerConfig {
  host: string;
  port: number;
  logLevel: string;
  /** Where the cache file and the embedded store live; null keeps the cache in memory (tests). */
  dataDir: string | null;
}

/** The upstream side (the data part): budget, cache, freshness, timeouts. */
export interface DataConfig {
  /**
   * Upstream requests kept back for interactive cache misses (background work stops above it);
   * null: a fifth of the key's hourly limit.
   */
  quotaReserve: number | null;
  freshness: FreshnessPolicy;
  cacheMaxEntries: number;
  /** CACHE_MAX_MB: upstream entries get three quarters, the answers rendered from them the rest. */
  cacheMaxBytes: number;
  /** Cache misses one client may cause per minute (hits are never limited). */
  clientMissesPerMinute: number;
  /** Share of the key's hourly limit one client may spend on misses in an hour (percent). */
  clientBudgetSharePercent: number;
  upstreamTimeouts: { connectMs: number; requestMs: number };
  /** Retries of 500/502/503/504 and network errors: full-jitter backoff from `baseDelayMs`. */
  upstreamRetry: { maxAttempts: number; maxTotalMs: number; baseDelayMs: number };
}

/** Who may come in, and how the page is served to them. */
export interface AccessConfig {
  dashboardToken: Secret | null;
  trustedProxyAuthHeader: string | null;
  /**
   * Addresses of the proxy in front (TRUSTED_PROXY_ADDRESSES). Only connections from these may
   * vouch for a user with the proxy header or name the client in `X-Forwarded-For`. Optional
   * in the type so literal configs stay short: absent means no proxy is trusted.
   */
  trustedProxyAddresses?: string[];
  /** Host names (Host header, port ignored) answered for; null any; absent the loopback names. */
  allowedHosts?: string[] | null;
  allowAnonymous: boolean;
  /** OpenID Connect sign-in; absent or null: none. */
  oidc?: OidcConfig | null;
  /** TRUSTED_PROXY_GROUPS_HEADER: the proxy's header listing a person's groups (roles). */
  trustedProxyGroupsHeader?: string | null;
  /** OIDC_EDITORS / OIDC_ADMINS, for the OIDC role claim and the proxy's groups header. */
  roles?: RoleMapping;
  /** How long a signed-in person's session lasts (absent: 8 h idle, 7 d in all). */
  sessionLifetimes?: SessionLifetimes;
  /** AUDIT_RETENTION_DAYS: how long the audit log keeps an entry (absent: 365). */
  auditRetentionDays?: number;
  /** People reach the page over TLS (PUBLIC_URL is https://): HSTS, secure cookies (absent: no). */
  behindTls?: boolean;
}

/** The look of the page. */
export interface LookConfig {
  tiles: { url: string; attribution: string } | null;
}

/** The history store and the questions it answers. */
export interface HistoryConfig {
  /** PostgreSQL instead of the embedded PGlite under DATA_DIR; holds a password, so a Secret. */
  databaseUrl: Secret | null;
  /** HISTORY_RETENTION_DAYS; null keeps everything. */
  retentionDays: number | null;
  /** "A client asking the store too much": its budget, its questions and queries at once. */
  storeQuestions?: Partial<StoreQuestionLimits>;
}

/** The store limits of `parseConfig`'s defaults (literal configs may leave any out). */
export const DEFAULT_STORE_LIMITS: StoreQuestionLimits = {
  perMinute: 120,
  perClientInFlight: 2,
  perClientQueue: 8,
  inFlight: 2,
  queriesPerMinute: 60,
  queriesInFlight: 2,
  queryQueue: 50,
};

/** Replicas sharing one PostgreSQL: set exactly when DATABASE_URL is. */
export interface ReplicasConfig {
  /** REPLICA_NAME: how this process names itself in logs and /api/status. */
  replicaName: string;
  /** LEADER_LEASE_SECONDS: a dead leader is replaced within about 1.33 times this. */
  leaseSeconds: number;
  /** DATABASE_POOL_MAX: connections this replica opens (plus one that listens). */
  poolMax: number;
}

/** Where alerts go. */
export interface AlertsConfig {
  /** WEBHOOK_ALLOW_PRIVATE: webhooks to loopback/private addresses and plain http allowed. */
  webhookAllowPrivate: boolean;
  /** SMTP_URL (smtp:// or smtps://, may hold a password) and ALERT_EMAIL_FROM: e-mail digests. */
  email: { smtpUrl: Secret; from: string } | null;
  /** PUBLIC_URL: the dashboard's public address, for links in e-mail and webhooks. */
  linkBase: string | null;
}

export interface AppConfig {
  server: ServerConfig;
  upstream: UpstreamConfig;
  data: DataConfig;
  access: AccessConfig;
  look: LookConfig;
  /** Null records nothing (tests that do not need a store). */
  history: HistoryConfig | null;
  replicas: ReplicasConfig | null;
  alerts: AlertsConfig;
  /** Start-up warnings (deprecated settings), said once by main.ts. */
  warnings: string[];
}

function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

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
      'RISK_API_BASE_URL is set but RISK_API_KEY (or CREDENTIALS_DIRECTORY/risk-api-key) is not',
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

/** PUBLIC_URL without a trailing slash (ALERT_LINK_BASE_URL, deprecated, stands in for it). */
function publicUrl(env: Environment): string | null {
  const raw = env.PUBLIC_URL ?? env.ALERT_LINK_BASE_URL;
  return raw === null ? null : new URL(raw).href.replace(/\/+$/, '');
}

function checkAccessCombinations(env: Environment): void {
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
}

/** The OIDC_* settings as text for config-oidc.ts; the callback derived from PUBLIC_URL. */
function oidcSettings(env: Environment): Record<string, string | null> {
  const own = Object.fromEntries(
    Object.entries(env).filter(([name]) => name.startsWith('OIDC_')),
  ) as Record<string, string | null>;
  const base = env.PUBLIC_URL === null ? null : new URL(env.PUBLIC_URL).href.replace(/\/+$/, '');
  if (own.OIDC_REDIRECT_URL === null && base !== null && own.OIDC_ISSUER_URL !== null) {
    own.OIDC_REDIRECT_URL = `${base}/auth/callback`;
  }
  return own;
}

function readAccess(env: Environment): AccessConfig {
  const host = env.HOST;
  checkAccessCombinations(env);
  const oidc = readOidc(oidcSettings(env), (message) => {
    throw new ConfigError(
      message.replace(
        'OIDC_REDIRECT_URL is not',
        'PUBLIC_URL is not (the callback registered at the provider is PUBLIC_URL + /auth/callback)',
      ),
    );
  });
  const defaultHosts = isLoopback(host)
    ? [...new Set([...LOOPBACK_NAMES, host.toLowerCase()])]
    : null;
  const access: AccessConfig = {
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
    behindTls: env.BEHIND_TLS || (env.PUBLIC_URL?.startsWith('https:') ?? false),
  };
  const controlled =
    access.dashboardToken || access.trustedProxyAuthHeader || oidc || access.allowAnonymous;
  if (!isLoopback(host) && !controlled) {
    throw new ConfigError(
      `HOST=${host} would expose the dashboard beyond this machine without access control: ` +
        'set OIDC_ISSUER_URL, DASHBOARD_TOKEN or TRUSTED_PROXY_AUTH_HEADER (or ALLOW_ANONYMOUS=1 to accept the risk)',
    );
  }
  return access;
}

function readTiles(env: Environment): LookConfig['tiles'] {
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

function readData(env: Environment): DataConfig {
  return {
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
    upstreamTimeouts: {
      connectMs: env.UPSTREAM_CONNECT_TIMEOUT_MS,
      requestMs: env.UPSTREAM_TIMEOUT_MS,
    },
    upstreamRetry: { maxAttempts: 3, maxTotalMs: 10_000, baseDelayMs: 250 },
  };
}

/**
 * STORE_QUESTIONS_PER_MINUTE: a client's budget of history and event-archive answers a minute
 * (one unit per started 64 KB); the store queries it may cause follow from it (half as many).
 * The seven settings it replaces still apply for this release.
 */
function readHistory(env: Environment): HistoryConfig {
  const budget = env.STORE_QUESTIONS_PER_MINUTE;
  return {
    databaseUrl: env.DATABASE_URL,
    retentionDays: env.HISTORY_RETENTION_DAYS,
    storeQuestions: {
      perMinute: budget ?? env.HISTORY_COST_PER_MINUTE,
      perClientInFlight: env.HISTORY_QUESTIONS_PER_CLIENT,
      perClientQueue: env.HISTORY_QUEUE_PER_CLIENT,
      inFlight: env.HISTORY_QUESTIONS_IN_FLIGHT,
      queriesPerMinute:
        budget === null ? env.STORE_QUERIES_PER_MINUTE : Math.max(1, Math.ceil(budget / 2)),
      queriesInFlight: env.STORE_QUERIES_IN_FLIGHT,
      queryQueue: env.STORE_QUERY_QUEUE,
    },
  };
}

function readAlerts(env: Environment): AlertsConfig {
  const { SMTP_URL: smtp, ALERT_EMAIL_FROM: from } = env;
  if ((smtp === null) !== (from === null)) {
    throw new ConfigError('Set SMTP_URL and ALERT_EMAIL_FROM together (e-mail digests need both)');
  }
  return {
    webhookAllowPrivate: env.WEBHOOK_ALLOW_PRIVATE,
    email: smtp !== null && from !== null ? { smtpUrl: smtp, from } : null,
    linkBase: publicUrl(env),
  };
}

function toAppConfig(env: Environment, warnings: string[]): AppConfig {
  return {
    server: { host: env.HOST, port: env.PORT, logLevel: env.LOG_LEVEL, dataDir: env.DATA_DIR },
    upstream: readUpstream(env),
    data: readData(env),
    access: readAccess(env),
    look: { tiles: readTiles(env) },
    history: readHistory(env),
    alerts: readAlerts(env),
    replicas: env.DATABASE_URL
      ? {
          replicaName: env.REPLICA_NAME ?? `${hostname()}-${process.pid}`,
          leaseSeconds: env.LEADER_LEASE_SECONDS,
          poolMax: env.DATABASE_POOL_MAX,
        }
      : null,
    warnings,
  };
}

function readFileOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** Parses the environment once; throws ConfigError with a single line on the first problem. */
export function parseConfig(raw: Env): AppConfig {
  const env = withCredentials(raw, readFileOrNull);
  const parsed = environmentSchema.safeParse(env);
  if (!parsed.success) {
    // Every message was written in config-env.ts: one line naming the variable, never a secret.
    throw new ConfigError(parsed.error.issues[0]?.message ?? 'the configuration is not valid');
  }
  return toAppConfig(parsed.data, deprecationWarnings(raw));
}
