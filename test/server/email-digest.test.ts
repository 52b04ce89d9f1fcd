import { startSmtpInbox, type SmtpInbox } from '../helpers/smtp-inbox.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alert } from '../../src/shared/alerts-api.js';
import { Secret } from '../../src/server/secret.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { openAppStore } from '../helpers/history-store.js';
import { subjectOf } from '../helpers/mail-subject.js';
import { startHistoryStack, type HistoryStack } from '../helpers/history-stack.js';

/*
 * E-mail digests through nodemailer to a real SMTP server (smtp-server) on a loopback port:
 * one message per batch and watchlist, plain text and HTML, from ALERT_EMAIL_FROM.
 */
interface Mail {
  from: string;
  to: string[];
  raw: string;
}

let store: HistoryStore;
let smtp: SmtpInbox;
let port: number;
let inbox: Mail[] = [];
const waiters: Array<() => void> = [];

beforeAll(async () => {
  store = await openAppStore();
  smtp = await startSmtpInbox();
  port = smtp.port;
  inbox = smtp.messages;
  smtp.onMessage(() => waiters.splice(0).forEach((w) => w()));
}, 60_000);
afterAll(async () => {
  await smtp?.close();
  await store?.close();
});

async function mails(n: number): Promise<Mail[]> {
  while (inbox.length < n) await new Promise<void>((resolve) => waiters.push(resolve));
  return inbox.slice();
}

describe('e-mail digests', () => {
  let stack: HistoryStack;
  afterAll(async () => {
    await stack?.close();
  });

  it('sends one plain-text + HTML digest per batch and list', async () => {
    stack = await startHistoryStack(store, {
      start: Date.UTC(2026, 5, 1, 8),
      config: {
        alerts: {
          webhookAllowPrivate: false,
          email: {
            smtpUrl: new Secret(`smtp://127.0.0.1:${port}`),
            from: 'alerts@risk.example.com',
          },
          linkBase: null,
        },
      },
    });
    const [first] = await store.latestBatches(1);
    const countries = (await store.countryRows(first!.id))
      .map((r) => r.iso)
      .sort()
      .slice(0, 30);
    const created = await stack.app.inject({
      method: 'POST',
      url: '/api/watchlists',
      payload: {
        name: 'Desk',
        countries,
        rules: [{ kind: 'active_change', min_abs_delta: 0.1 }],
        email: 'analyst@example.com',
      },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().watchlist.id;
    await stack.nextBatch();
    await stack.bff.alertsIdle();
    const alerts: Alert[] = (
      await stack.app.inject({ url: `/api/alerts?watchlist=${id}&limit=200` })
    ).json().alerts;
    expect(alerts.length).toBeGreaterThan(1);

    const [mail] = await mails(1);
    expect(inbox).toHaveLength(1);
    expect(mail!.from).toBe('alerts@risk.example.com');
    expect(mail!.to).toEqual(['analyst@example.com']);
    expect(subjectOf(mail!.raw)).toBe(
      `${alerts.length} alerts for "Desk" (batch ${alerts[0]!.batch_as_of})`,
    );
    expect(mail!.raw).toMatch(/Content-Type: multipart\/alternative/);
    expect(mail!.raw).toMatch(/Content-Type: text\/plain/);
    expect(mail!.raw).toMatch(/Content-Type: text\/html/);
    for (const alert of alerts) expect(mail!.raw).toContain(`(${alert.iso})`);
    // The batch cited by its id, in both parts (quoted-printable soft line breaks removed).
    const [cited] = (await stack.app.inject('/api/batches?limit=1')).json().batches;
    expect(cited.as_of).toBe(alerts[0]!.batch_as_of);
    expect(mail!.raw.replace(/=\r?\n/g, '').split(`batch id ${cited.id}`)).toHaveLength(3);

    const log = (await stack.app.inject({ url: `/api/watchlists/${id}/deliveries` })).json()
      .deliveries;
    expect(log).toMatchObject([{ channel: 'email', state: 'delivered', status: 250 }]);

    // The next batch is another digest; a list without e-mail gets none.
    await stack.nextBatch();
    await stack.bff.alertsIdle();
    expect((await mails(2)).length).toBe(2);
  }, 60_000);
});
