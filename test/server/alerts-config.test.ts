import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/server/config.js';

/** SMTP_URL, ALERT_EMAIL_FROM, WEBHOOK_ALLOW_PRIVATE, ALERT_LINK_BASE_URL. */
describe('alert configuration', () => {
  it('defaults: no e-mail, no private webhooks, relative links', () => {
    expect(parseConfig({}).alerts).toEqual({
      webhookAllowPrivate: false,
      email: null,
      linkBase: null,
    });
  });

  it('reads SMTP with its sender, keeping the URL secret', () => {
    const config = parseConfig({
      SMTP_URL: 'smtps://user:pa55@mail.example.com:465',
      ALERT_EMAIL_FROM: 'Risk desk <alerts@example.com>',
      WEBHOOK_ALLOW_PRIVATE: '1',
      ALERT_LINK_BASE_URL: 'https://risk.example.com/',
    });
    expect(config.alerts?.email?.from).toBe('Risk desk <alerts@example.com>');
    expect(config.alerts?.email?.smtpUrl.reveal()).toBe('smtps://user:pa55@mail.example.com:465');
    expect(JSON.stringify(config)).not.toContain('pa55');
    expect(config.alerts?.webhookAllowPrivate).toBe(true);
    expect(config.alerts?.linkBase).toBe('https://risk.example.com');
  });

  const bad: Array<[Record<string, string>, RegExp]> = [
    [{ SMTP_URL: 'smtp://mail.example.com' }, /together/],
    [{ ALERT_EMAIL_FROM: 'a@example.com' }, /together/],
    [{ SMTP_URL: 'http://mail.example.com', ALERT_EMAIL_FROM: 'a@example.com' }, /smtp:\/\//],
    [{ SMTP_URL: 'smtp://mail.example.com', ALERT_EMAIL_FROM: 'nobody' }, /ALERT_EMAIL_FROM/],
    [{ WEBHOOK_ALLOW_PRIVATE: 'maybe' }, /WEBHOOK_ALLOW_PRIVATE must be 1 or 0/],
    [{ ALERT_LINK_BASE_URL: 'risk.example.com' }, /ALERT_LINK_BASE_URL/],
  ];
  it.each(bad)('refuses %o in one line', (env, words) => {
    expect(() => parseConfig(env)).toThrow(ConfigError);
    expect(() => parseConfig(env)).toThrow(words);
  });

  it('never puts the SMTP password in an error', () => {
    expect(() => parseConfig({ SMTP_URL: 'http://u:s3cret@x', ALERT_EMAIL_FROM: 'a@b.c' })).toThrow(
      /^(?!.*s3cret)/,
    );
  });
});
