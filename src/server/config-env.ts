import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { z } from 'zod';
import { DEFAULT_FRESHNESS } from '../shared/freshness.js';
import { Secret } from './secret.js';
import { guessingBits } from './token-strength.js';

/*
 * Every environment variable the BFF reads, each parsed on its own into a typed value with a
 * one-line problem naming the variable (never a secret's value). config.ts assembles the parts'
 * settings from them; this file only reads.
 */

/** Start-up configuration problem: one line naming the variable, never its secret value. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export const DEMO_TIERS = ['Pro', 'Team', 'Enterprise', 'Custom'] as const;
export type DemoTierName = (typeof DEMO_TIERS)[number];

export type Env = Record<string, string | undefined>;
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
export function httpUrlProblem(name: string, raw: string): string | null {
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
export const environmentSchema = z.object({
  HOST: text.transform((host) => host ?? '127.0.0.1'),
  PORT: integer('PORT', 3000, 0, 65535),
  RISK_API_BASE_URL: httpUrl('RISK_API_BASE_URL'),
  RISK_API_KEY: text,
  RISK_API_KEY_FILE: text,
  CREDENTIALS_DIRECTORY: text,
  PUBLIC_URL: httpUrl('PUBLIC_URL'),
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
  QUOTA_RESERVE: integer('QUOTA_RESERVE', null, 0, 1000),
  STALE_IF_ERROR_HOURS: integer('STALE_IF_ERROR_HOURS', 24, 0, 24 * 30),
  FRESH_SECONDS: integer('FRESH_SECONDS', 1800, 5, 86_400),
  BATCH_SCHEDULE_UTC: batchSchedule,
  CACHE_MAX_ENTRIES: integer('CACHE_MAX_ENTRIES', 2000, 10, 1_000_000),
  CACHE_MAX_MB: integer('CACHE_MAX_MB', 256, 16, 65_536),
  CLIENT_MISSES_PER_MINUTE: integer('CLIENT_MISSES_PER_MINUTE', 30, 1, 10_000),
  CLIENT_BUDGET_SHARE_PERCENT: integer('CLIENT_BUDGET_SHARE_PERCENT', 20, 1, 100),
  STORE_QUESTIONS_PER_MINUTE: integer('STORE_QUESTIONS_PER_MINUTE', null, 1, 1_000_000),
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

export type Environment = z.output<typeof environmentSchema>;

/**
 * Settings still accepted for this release, each with the words that name what replaces it (a
 * start-up warning says them). Their values still apply; the README lists only the others.
 */
export const DEPRECATED_SETTINGS: Record<string, string> = {
  ALERT_LINK_BASE_URL: 'set PUBLIC_URL, the dashboard’s public address, instead',
  OIDC_REDIRECT_URL: 'set PUBLIC_URL instead: the callback is PUBLIC_URL + /auth/callback',
  BEHIND_TLS: 'set PUBLIC_URL to the https:// address people use instead',
  RISK_API_KEY_FILE: 'put the key in the file risk-api-key of CREDENTIALS_DIRECTORY instead',
  OIDC_CLIENT_SECRET_FILE:
    'put the secret in the file oidc-client-secret of CREDENTIALS_DIRECTORY instead',
  DEMO_TIER:
    'the built-in demo serves the Pro tier; for another, run `npm run demo-upstream -- --tier Team` and set RISK_API_BASE_URL and RISK_API_KEY',
  QUOTA_RESERVE: 'the reserve is now a fifth of the key’s hourly limit (10 of Pro’s 50)',
  CACHE_MAX_ENTRIES: 'CACHE_MAX_MB bounds the cache',
  CLIENT_MISSES_PER_MINUTE: 'CLIENT_BUDGET_SHARE_PERCENT bounds one client’s cache misses',
  UPSTREAM_CONNECT_TIMEOUT_MS: 'the upstream timeouts are fixed (3 s to connect, 15 s in all)',
  UPSTREAM_TIMEOUT_MS: 'the upstream timeouts are fixed (3 s to connect, 15 s in all)',
  STALE_IF_ERROR_HOURS: 'the last good data is served for 24 hours while the upstream fails',
  SESSION_MAX_DAYS: 'a session ends after 7 days in all; SESSION_IDLE_HOURS stays',
  REPLICA_NAME:
    'a replica is named by its host name and process id (in a container, the host name is the pod’s)',
  STORE_QUERIES_PER_MINUTE: 'use STORE_QUESTIONS_PER_MINUTE',
  STORE_QUERIES_IN_FLIGHT: 'use STORE_QUESTIONS_PER_MINUTE',
  STORE_QUERY_QUEUE: 'use STORE_QUESTIONS_PER_MINUTE',
  HISTORY_COST_PER_MINUTE: 'use STORE_QUESTIONS_PER_MINUTE',
  HISTORY_QUESTIONS_PER_CLIENT: 'use STORE_QUESTIONS_PER_MINUTE',
  HISTORY_QUEUE_PER_CLIENT: 'use STORE_QUESTIONS_PER_MINUTE',
  HISTORY_QUESTIONS_IN_FLIGHT: 'use STORE_QUESTIONS_PER_MINUTE',
};

/** One warning line per deprecated setting that is set. */
export function deprecationWarnings(env: Env): string[] {
  return Object.entries(DEPRECATED_SETTINGS)
    .filter(([name]) => (env[name]?.trim() ?? '') !== '')
    .map(([name, instead]) => `${name} is deprecated and will be removed: ${instead}`);
}

/**
 * Secrets read from files in CREDENTIALS_DIRECTORY (systemd's LoadCredential= sets it; a mounted
 * Kubernetes secret works the same), one file per setting, used when the variable itself is unset.
 */
const CREDENTIAL_FILES: Record<string, string> = {
  RISK_API_KEY: 'risk-api-key',
  OIDC_CLIENT_SECRET: 'oidc-client-secret',
  DASHBOARD_TOKEN: 'dashboard-token',
  DATABASE_URL: 'database-url',
  SMTP_URL: 'smtp-url',
};

export function withCredentials(env: Env, read: (path: string) => string | null): Env {
  const dir = env.CREDENTIALS_DIRECTORY?.trim();
  if (!dir) return env;
  const filled: Env = { ...env };
  for (const [name, file] of Object.entries(CREDENTIAL_FILES)) {
    if ((env[name]?.trim() ?? '') !== '') continue;
    const value = read(`${dir}/${file}`)?.trim();
    if (value) filled[name] = value;
  }
  return filled;
}
