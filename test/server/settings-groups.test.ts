import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEPRECATED_SETTINGS, environmentSchema } from '../../src/server/config-env.js';
import { ConfigError, parseConfig } from '../../src/server/config.js';
import { QuotaGovernor } from '../../src/server/upstream/quota.js';

const KEY = `ar_live_${'ab'.repeat(32)}`;

/** Every variable the BFF reads, less the deprecated ones (which still apply for a release). */
const current = Object.keys(environmentSchema.shape).filter(
  (name) => !(name in DEPRECATED_SETTINGS),
);

describe('settings an operator can hold in their head', () => {
  it('are fewer than 40, and the README names each of them and none of the deprecated', () => {
    expect(current.length).toBeLessThan(40);
    const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
    for (const name of current) expect(readme, name).toContain(`\`${name}\``);
    for (const name of Object.keys(DEPRECATED_SETTINGS)) {
      expect(readme, name).not.toMatch(new RegExp(`^\\| \`${name}\``, 'm'));
    }
  });

  it('a deprecated setting still applies, with one warning naming what replaces it', () => {
    const config = parseConfig({
      ALERT_LINK_BASE_URL: 'https://risk.example.com/',
      QUOTA_RESERVE: '4',
    });
    expect(config.alerts.linkBase).toBe('https://risk.example.com');
    expect(config.data.quotaReserve).toBe(4);
    expect(config.warnings).toEqual([
      expect.stringMatching(/^ALERT_LINK_BASE_URL is deprecated .*PUBLIC_URL/),
      expect.stringMatching(/^QUOTA_RESERVE is deprecated .*a fifth of the key/),
    ]);
    expect(parseConfig({}).warnings).toEqual([]);
  });

  it('PUBLIC_URL gives the links, the sign-in callback and TLS behaviour', () => {
    const config = parseConfig({
      PUBLIC_URL: 'https://risk.example.com/',
      OIDC_ISSUER_URL: 'https://id.example.com',
      OIDC_CLIENT_ID: 'dashboard',
      OIDC_CLIENT_SECRET: 's3cret',
    });
    expect(config.alerts.linkBase).toBe('https://risk.example.com');
    expect(config.access.oidc?.redirectUrl).toBe('https://risk.example.com/auth/callback');
    expect(config.access.behindTls).toBe(true);
    expect(parseConfig({ PUBLIC_URL: 'http://10.0.0.5:3000' }).access.behindTls).toBe(false);
    expect(() =>
      parseConfig({
        OIDC_ISSUER_URL: 'https://id.example.com',
        OIDC_CLIENT_ID: 'dashboard',
        OIDC_CLIENT_SECRET: 's3cret',
      }),
    ).toThrow(/PUBLIC_URL is not/);
  });

  it('secrets come from CREDENTIALS_DIRECTORY when their variable is unset', () => {
    const dir = mkdtempSync(join(tmpdir(), 'grd-credentials-'));
    writeFileSync(join(dir, 'risk-api-key'), `${KEY}\n`);
    writeFileSync(join(dir, 'smtp-url'), 'smtps://user:pw@mail.example.com:465');
    const config = parseConfig({
      CREDENTIALS_DIRECTORY: dir,
      RISK_API_BASE_URL: 'https://api.example.com',
      ALERT_EMAIL_FROM: 'alerts@example.com',
    });
    expect(config.upstream.mode === 'live' && config.upstream.apiKey.reveal()).toBe(KEY);
    expect(config.alerts.email?.smtpUrl.reveal()).toBe('smtps://user:pw@mail.example.com:465');
    // The variable itself wins over the file.
    const other = `ar_live_${'cd'.repeat(32)}`;
    const inline = parseConfig({
      CREDENTIALS_DIRECTORY: dir,
      RISK_API_BASE_URL: 'https://api.example.com',
      RISK_API_KEY: other,
      ALERT_EMAIL_FROM: 'alerts@example.com',
    });
    expect(inline.upstream.mode === 'live' && inline.upstream.apiKey.reveal()).toBe(other);
  });

  it('STORE_QUESTIONS_PER_MINUTE is one client’s budget of store answers; its queries follow', () => {
    const config = parseConfig({ STORE_QUESTIONS_PER_MINUTE: '40' });
    expect(config.history?.storeQuestions?.perMinute).toBe(40);
    expect(config.history?.storeQuestions?.queriesPerMinute).toBe(20);
    expect(() => parseConfig({ STORE_QUESTIONS_PER_MINUTE: '0' })).toThrow(ConfigError);
    expect(() => parseConfig({ STORE_QUESTIONS_PER_MINUTE: 'many' })).toThrow(
      /STORE_QUESTIONS_PER_MINUTE must be a whole number/,
    );
  });

  it('the reserve for people is a fifth of the key’s hourly limit unless set', () => {
    const now = (): number => 0;
    const derived = new QuotaGovernor(null, now);
    expect(derived.effectiveReserve()).toBe(10); // Pro, 50 an hour, until the upstream tells
    derived.recordHeaders(100, 99, derived.recordSend());
    expect(derived.effectiveReserve()).toBe(20);
    expect(new QuotaGovernor(4, now).effectiveReserve()).toBe(4);
    expect(parseConfig({}).data.quotaReserve).toBeNull();
  });
});
