import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alert } from '../../src/shared/alerts-api.js';
import { Secret } from '../../src/server/secret.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { get, startTestStack } from '../helpers/bff.js';
import { startHistoryStack, type HistoryStack } from '../helpers/history-stack.js';
import { openAppStore } from '../helpers/history-store.js';
import { subjectOf } from '../helpers/mail-subject.js';
import { startSmtpInbox, type SmtpInbox } from '../helpers/smtp-inbox.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

/*
 * What we send and export in the reader's language (issue 34): a list's e-mails over SMTP on
 * loopback and its webhooks to a real receiver in the list's `language`, English by default;
 * spreadsheet headers by `?lang=`, else Accept-Language, else English; a bad `language` is a 400
 * with nothing written.
 */

let store: HistoryStore;
let smtp: SmtpInbox;
let receiver: WebhookReceiver;
let stack: HistoryStack;
const waiters: Array<() => void> = [];

beforeAll(async () => {
  store = await openAppStore();
  smtp = await startSmtpInbox();
  smtp.onMessage(() => waiters.splice(0).forEach((w) => w()));
  receiver = await startWebhookReceiver();
  stack = await startHistoryStack(store, {
    start: Date.UTC(2026, 5, 1, 8),
    config: {
      alerts: {
        webhookAllowPrivate: true,
        email: { smtpUrl: new Secret(`smtp://127.0.0.1:${smtp.port}`), from: 'alerts@example.com' },
        linkBase: 'https://risk.example.com',
      },
    },
  });
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await receiver?.close();
  await smtp?.close();
  await store?.close();
});

async function mails(n: number) {
  while (smtp.messages.length < n) await new Promise<void>((resolve) => waiters.push(resolve));
  return smtp.messages.slice();
}

/** A raw message's body with quoted-printable undone (soft breaks, =XX bytes as UTF-8). */
function decoded(raw: string): string {
  const bytes = raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

async function countriesOfBatch(): Promise<string[]> {
  const [first] = await store.latestBatches(1);
  return (await store.countryRows(first!.id))
    .map((r) => r.iso)
    .sort()
    .slice(0, 30);
}

async function createList(payload: object) {
  return stack.app.inject({ method: 'POST', url: '/api/watchlists', payload });
}

describe('a watchlist’s language', () => {
  it('an unknown code is a 400 naming language, and nothing is written', async () => {
    const before = (await stack.app.inject('/api/watchlists')).json().watchlists.length;
    const res = await createList({ name: 'Bad', countries: ['MLI'], language: 'de' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      ok: false,
      error: expect.stringMatching(/^language: .*en, fr, es, ar/),
    });
    expect((await stack.app.inject('/api/watchlists')).json().watchlists).toHaveLength(before);
  });

  it('e-mails and webhooks in the list’s language; English by default', async () => {
    const countries = await countriesOfBatch();
    const rules = [{ kind: 'active_change', min_abs_delta: 0.1 }];
    const fr = await createList({
      name: 'Bureau',
      countries,
      rules,
      email: 'fr@example.com',
      language: 'fr',
    });
    expect(fr.statusCode).toBe(201);
    expect(fr.json().watchlist.language).toBe('fr');
    const en = await createList({ name: 'Desk', countries, rules, email: 'en@example.com' });
    expect(en.json().watchlist.language).toBe('en');
    const ar = await createList({
      name: 'Hooks',
      countries,
      rules,
      webhook_url: receiver.url,
      language: 'ar',
    });
    expect(ar.statusCode).toBe(201);

    await stack.nextBatch();
    await stack.bff.alertsIdle();
    const alerts: Alert[] = (
      await stack.app.inject(`/api/alerts?watchlist=${ar.json().watchlist.id}&limit=200`)
    ).json().alerts;
    expect(alerts.length).toBeGreaterThan(0);

    const sent = await mails(2);
    const to = (address: string) => sent.find((m) => m.to.includes(address))!;
    const french = to('fr@example.com');
    expect(subjectOf(french.raw)).toMatch(/^\d+ alertes? pour « Bureau » \(lot du /);
    expect(decoded(french.raw)).toContain('Liste de suivi « Bureau », lot du ');
    expect(decoded(french.raw)).toContain('Score actif ');
    const english = to('en@example.com');
    expect(subjectOf(english.raw)).toMatch(/^\d+ alerts? for "Desk" \(batch \d{4}-/);
    expect(decoded(english.raw)).toContain('Watchlist “Desk”, batch of ');

    const got = await receiver.waitFor(alerts.length);
    const payload = JSON.parse(got[0]!.body);
    // Machine fields stay as they are; the words are Arabic.
    expect(Object.keys(payload.data.alert)).toEqual(['id', 'rule', 'kind', 'message', 'link']);
    expect(payload.type).toBe('alert.created');
    expect(payload.data.country.iso).toMatch(/^[A-Z]{3}$/);
    expect(payload.data.alert.message).toMatch(/^الدرجة النشطة /);
    expect(payload.data.language).toBe('ar');
    const alert = alerts.find((a) => a.id === payload.data.alert.id)!;
    expect(payload.data.country.name).not.toBe(alert.country);
    expect(payload.data.country.name).toMatch(/\p{Script=Arabic}/u);
  }, 60_000);
});

describe('spreadsheet headers', () => {
  it('?lang=, else Accept-Language, else English; the cells stay as they are', async () => {
    const test = await startTestStack();
    try {
      const header = async (url: string, headers: Record<string, string> = {}) => {
        const res = await get(test, url, { headers });
        expect(res.statusCode).toBe(200);
        const rows = parse(res.body, { bom: true }) as string[][];
        return { res, head: rows[0]!, first: rows[1]! };
      };
      const english = await header('/api/spreadsheet/countries');
      expect(english.head.slice(0, 3)).toEqual(['Rank', 'Country', 'ISO code']);
      expect(english.res.headers['content-language']).toBe('en');
      const french = await header('/api/spreadsheet/countries?lang=fr');
      expect(french.head.slice(0, 3)).toEqual(['Rang', 'Pays', 'Code ISO']);
      expect(french.first).toEqual(english.first);
      const arabic = await header('/api/spreadsheet/countries', {
        'accept-language': 'ar,en;q=0.5',
      });
      expect(arabic.head[0]).toBe('الترتيب');
      expect(arabic.res.headers['content-language']).toBe('ar');
      // ?lang= wins over the browser; an unknown code is English, not an error.
      const spanish = await header('/api/spreadsheet/countries?lang=es', {
        'accept-language': 'ar',
      });
      expect(spanish.head[0]).toBe('Puesto');
      expect((await header('/api/spreadsheet/countries?lang=zz')).head[0]).toBe('Rank');
      const iso = english.first[2]!;
      const country = await header(`/api/spreadsheet/country/${iso}?lang=fr`);
      expect(country.head.slice(0, 2)).toEqual(['Pays', 'Code ISO']);
    } finally {
      await test.close();
    }
  }, 60_000);

  it('every other spreadsheet made for people too: sites, events and the audit log by ?lang=', async () => {
    const header = async (url: string) => {
      const res = await stack.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      const [head] = parse(res.body, { bom: true, to: 1 }) as string[][];
      return { language: res.headers['content-language'], head: head?.slice(0, 2) };
    };
    expect(await header('/api/spreadsheet/sites.csv')).toEqual({
      language: 'en',
      head: ['Ref', 'Name'],
    });
    expect(await header('/api/spreadsheet/sites.csv?lang=fr&kind=office')).toEqual({
      language: 'fr',
      head: ['Réf.', 'Nom'],
    });
    expect(await header('/api/spreadsheet/events.csv?lang=es')).toEqual({
      language: 'es',
      head: ['Hora (UTC)', 'Titular'],
    });
    expect(await header('/api/spreadsheet/audit.csv?lang=ar')).toEqual({
      language: 'ar',
      head: ['الوقت (UTC)', 'ما الذي حدث'],
    });
    // An unknown language is English, not an error; an unknown parameter still is one.
    expect((await header('/api/spreadsheet/audit.csv?lang=zz')).head).toEqual([
      'Time (UTC)',
      'What happened',
    ]);
    const bad = await stack.app.inject('/api/spreadsheet/sites.csv?language=fr');
    expect(bad.statusCode).toBe(400);
  });
});
