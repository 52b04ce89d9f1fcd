import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/server/config.js';

const SECRET = 'client-secret-that-must-never-be-printed';
const OIDC = {
  OIDC_ISSUER_URL: 'https://login.example.com/realms/risk',
  OIDC_CLIENT_ID: 'dashboard',
  OIDC_CLIENT_SECRET: SECRET,
  OIDC_REDIRECT_URL: 'https://risk.example.com/auth/callback',
};

function problem(env: Record<string, string>): string {
  try {
    parseConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('parseConfig accepted it');
}

describe('OIDC settings', () => {
  it('reads the provider, roles, domains and lifetimes, with the documented defaults', () => {
    const config = parseConfig({
      ...OIDC,
      HOST: '0.0.0.0',
      OIDC_EDITORS: 'risk-editors, analysts',
      OIDC_ADMINS: 'risk-admins',
      OIDC_ALLOWED_EMAIL_DOMAINS: 'Example.com,@corp.example',
    });
    const oidc = config.access.oidc;
    expect(oidc?.clientId).toBe('dashboard');
    expect(oidc?.roleClaim).toBe('groups');
    expect(oidc?.allowedEmailDomains).toEqual(['example.com', 'corp.example']);
    expect(config.access.roles).toEqual({
      editors: ['risk-editors', 'analysts'],
      admins: ['risk-admins'],
    });
    expect(config.access.sessionLifetimes).toEqual({
      idleMs: 8 * 3_600_000,
      absoluteMs: 7 * 86_400_000,
    });
    // OIDC is access control: listening beyond loopback is allowed with it alone.
    expect(config.server.host).toBe('0.0.0.0');
  });

  it('reads OIDC_SCOPES (spaces or commas, openid required) and a dotted OIDC_ROLE_CLAIM', () => {
    expect(parseConfig(OIDC).access.oidc?.scopes).toEqual(['openid', 'profile', 'email']);
    const okta = parseConfig({ ...OIDC, OIDC_SCOPES: ' openid profile,email  groups openid ' });
    expect(okta.access.oidc?.scopes).toEqual(['openid', 'profile', 'email', 'groups']);
    const keycloak = parseConfig({ ...OIDC, OIDC_ROLE_CLAIM: 'realm_access.roles' });
    expect(keycloak.access.oidc?.roleClaim).toBe('realm_access.roles');
  });

  it('never prints the client secret, from the variable or from a file', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'grd-oidc-')), 'secret');
    writeFileSync(file, `${SECRET}-file\n`);
    const { OIDC_CLIENT_SECRET: _inline, ...rest } = OIDC;
    const config = parseConfig({ ...rest, OIDC_CLIENT_SECRET_FILE: file });
    expect(config.access.oidc?.clientSecret.reveal()).toBe(`${SECRET}-file`);
    expect(inspect(config, { depth: 9 }) + JSON.stringify(config)).not.toContain(SECRET);
  });

  it.each([
    [{ ...OIDC, OIDC_CLIENT_ID: '' }, 'OIDC_ISSUER_URL is set but OIDC_CLIENT_ID is not'],
    [
      { ...OIDC, OIDC_CLIENT_SECRET: '' },
      'OIDC_ISSUER_URL is set but OIDC_CLIENT_SECRET (or OIDC_CLIENT_SECRET_FILE) is not',
    ],
    [
      { ...OIDC, OIDC_CLIENT_SECRET_FILE: '/nonexistent/secret' },
      'Set OIDC_CLIENT_SECRET or OIDC_CLIENT_SECRET_FILE, not both',
    ],
    [
      { ...OIDC, OIDC_REDIRECT_URL: 'https://risk.example.com/callback' },
      'OIDC_REDIRECT_URL must end in /auth/callback',
    ],
    [{ ...OIDC, OIDC_ISSUER_URL: 'login.example.com' }, 'OIDC_ISSUER_URL is not a valid URL'],
    [
      { ...OIDC, OIDC_ALLOWED_EMAIL_DOMAINS: 'example' },
      'OIDC_ALLOWED_EMAIL_DOMAINS must list e-mail domains',
    ],
    [
      { ...OIDC, OIDC_ISSUER_URL: 'http://login.example.com' },
      'OIDC_ISSUER_URL must use https:// (plain http:// only for a provider on loopback)',
    ],
    [{ OIDC_CLIENT_ID: 'dashboard' }, 'OIDC_CLIENT_ID is set but OIDC_ISSUER_URL is not'],
    [{ OIDC_SCOPES: 'openid groups' }, 'OIDC_SCOPES is set but OIDC_ISSUER_URL is not'],
    [
      { ...OIDC, OIDC_SCOPES: 'profile email groups' },
      'OIDC_SCOPES must include openid (e.g. "openid profile email groups")',
    ],
    [
      { ...OIDC, OIDC_SCOPES: 'openid "groups"' },
      'OIDC_SCOPES must list scopes separated by spaces (got ""groups"")',
    ],
    [
      { ...OIDC, OIDC_ROLE_CLAIM: 'realm_access..roles' },
      'OIDC_ROLE_CLAIM must name a claim, or a path such as realm_access.roles',
    ],
    [
      { SESSION_IDLE_HOURS: '200', SESSION_MAX_DAYS: '1' },
      'SESSION_IDLE_HOURS must not be longer than SESSION_MAX_DAYS',
    ],
    [
      { TRUSTED_PROXY_GROUPS_HEADER: 'X-Groups' },
      'TRUSTED_PROXY_GROUPS_HEADER is set but TRUSTED_PROXY_AUTH_HEADER is not',
    ],
  ])('refuses %o in plain words without the secret', (env, message) => {
    const text = problem(env as Record<string, string>);
    expect(text).toContain(message);
    expect(text).not.toContain(SECRET);
  });
});
