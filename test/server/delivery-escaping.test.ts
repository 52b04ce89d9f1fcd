import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../../src/server/jobs/mailer.js';
import { Secret } from '../../src/server/secret.js';
import {
  digestMail,
  testWebhookBody,
  webhookBody,
} from '../../src/server/services/alerts/alert-messages.js';
import type { Alert } from '../../src/shared/alerts-api.js';

/*
 * Every delivery format escapes what its receiver interprets: Slack's mrkdwn (&, <, >), the
 * e-mail's HTML part, and the e-mail's headers (a value cannot end the Subject).
 */
const HOSTILE = 'Ops <!channel> & <https://evil.example|click here> <@U123>';

function alert(overrides: Partial<Alert> = {}): Alert {
  return {
    id: '1',
    watchlist_id: '7',
    watchlist_name: HOSTILE,
    rule: 'breaking_event',
    kind: 'breaking_event',
    iso: 'MLI',
    country: 'Mali',
    message: 'Breaking: <!here> riots & <https://evil.example|news>',
    link: 'https://dash.example/country/MLI',
    batch_as_of: '2026-03-01T10:00:00Z',
    before: null,
    after: { as_of: '2026-03-01T10:00:00Z', risk: 50, tier: 'high', active: 40 },
    created_at: '2026-03-01T10:01:00Z',
    read_at: null,
    ...overrides,
  };
}

describe('Slack mrkdwn', () => {
  it('escapes &, < and > in every value, so nothing becomes a mention or a link', () => {
    const texts = [
      JSON.parse(webhookBody(alert(), 'slack', null)).text as string,
      JSON.parse(testWebhookBody('slack', { id: '7', name: HOSTILE }, new Date(0))).text as string,
    ];
    for (const text of texts) {
      expect(text).not.toMatch(/[<>]/);
      expect(text).not.toMatch(/&(?!amp;|lt;|gt;)/);
      expect(text).toContain('Ops &lt;!channel&gt; &amp; &lt;https://evil.example|click here&gt;');
    }
    expect(texts[0]).toContain(
      'Breaking: &lt;!here&gt; riots &amp; &lt;https://evil.example|news&gt;',
    );
  });

  it('leaves the standard JSON payload as the values are (JSON escapes itself)', () => {
    const body = JSON.parse(webhookBody(alert(), 'standard', null));
    expect(body.data.watchlist.name).toBe(HOSTILE);
  });
});

describe('e-mail digests', () => {
  let smtp: SMTPServer;
  let port: number;
  const received: Array<{ to: string[]; raw: string }> = [];
  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          received.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    port = (smtp.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => smtp?.close(() => resolve()));
  });

  it('escapes the HTML part and keeps every value out of the headers', async () => {
    // A name stored before names were checked: a CRLF and a header of its own.
    const name = 'Sahel\r\nBcc: thief@evil.example\r\nX-Injected: yes <b>bold</b>';
    const mail = digestMail(name, '2026-03-01T10:00:00Z', [alert({ watchlist_name: name })]);
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.html).not.toContain('<b>bold</b>');
    expect(mail.html).toContain('&lt;b&gt;bold&lt;/b&gt;');
    expect(mail.html).not.toContain('<!here>');

    const mailer = createMailer(new Secret(`smtp://127.0.0.1:${port}`), 'alerts@dash.example', {
      connectMs: 5_000,
      totalMs: 10_000,
    });
    // Even a stored body with its own header line in the subject, or an extra field, adds none.
    const stored = JSON.stringify({
      to: 'analyst@example.com',
      ...mail,
      subject: 'Hello\r\nBcc: thief@evil.example',
      bcc: 'thief@evil.example',
    });
    for (const body of [JSON.stringify({ to: 'analyst@example.com', ...mail }), stored]) {
      expect((await mailer.send(body)).status).toBe(250);
    }
    mailer.close();
    expect(received).toHaveLength(2);
    for (const { to, raw } of received) {
      expect(to).toEqual(['analyst@example.com']);
      const headers = raw.slice(0, raw.indexOf('\r\n\r\n'));
      expect(headers).not.toMatch(/^(Bcc|X-Injected):/im);
    }
  });
});
