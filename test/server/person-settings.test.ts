import { parse } from 'csv-parse/sync';
import { startSmtpInbox, type SmtpInbox } from '../helpers/smtp-inbox.js';
import type { Alert } from '../../src/shared/alerts-api.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret } from '../../src/server/secret.js';
import { isCritical } from '../../src/server/services/alerts/critical.js';
import { DailyDigests } from '../../src/server/services/alerts/daily-digest.js';
import { quietUntil } from '../../src/server/services/alerts/local-time.js';
import { insertAlerts } from '../../src/server/store/alerts.js';
import { digestDeliveries } from '../../src/server/store/person-settings-schema.js';
import { insertDigest, writePersonSettings } from '../../src/server/store/person-settings.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { openAppStore } from '../helpers/history-store.js';
import { subjectOf } from '../helpers/mail-subject.js';
import { startHistoryStack, type HistoryStack } from '../helpers/history-stack.js';

/*
 * Each person's delivery settings (issue 21): GET/PUT /api/me/settings in proxy mode (people
 * are e-mail addresses), the daily digest at a local hour in the person's own time zone sent
 * once to a real SMTP server on loopback, quiet hours holding a list's e-mail until they end.
 * The clock is the test's; jobs run when the manual scheduler says (no sleeps).
 */
const USER_HEADER = 'x-forwarded-user';
const HOUR = 3_600_000;

interface Mail {
  to: string[];
  raw: string;
}
let store: HistoryStore;
let smtp: SmtpInbox;
let port: number;
let inbox: Mail[] = [];

beforeAll(async () => {
  store = await openAppStore();
  smtp = await startSmtpInbox();
  port = smtp.port;
  inbox = smtp.messages;
}, 60_000);
afterAll(async () => {
  await smtp?.close();
  await store?.close();
});

async function startStack(start: number): Promise<HistoryStack> {
  return startHistoryStack(store, {
    start,
    config: {
      access: {
        dashboardToken: null,
        trustedProxyAuthHeader: USER_HEADER,
        trustedProxyAddresses: ['127.0.0.1'],
        allowedHosts: ['localhost', '127.0.0.1', '::1'],
        allowAnonymous: false,
      },
      alerts: {
        webhookAllowPrivate: false,
        email: { smtpUrl: new Secret(`smtp://127.0.0.1:${port}`), from: 'alerts@example.com' },
        linkBase: null,
      },
    },
  });
}

/** Moves the clock on and lets every job that is due run to the end. */
async function advance(stack: HistoryStack, ms: number): Promise<void> {
  stack.clock.advance(ms);
  stack.scheduler.runDue();
  await stack.bff.historyIdle();
  await stack.bff.alertsIdle();
}

const mailsTo = (address: string): Mail[] => inbox.filter((m) => m.to.includes(address));

function put(stack: HistoryStack, user: string, body: object, ifMatch?: string) {
  return stack.app.inject({
    method: 'PUT',
    url: '/api/me/settings',
    headers: { [USER_HEADER]: user, ...(ifMatch ? { 'if-match': ifMatch } : {}) },
    payload: body,
  });
}

const settings = {
  email_enabled: true,
  digest_hour: null,
  time_zone: 'UTC',
  quiet_hours: null,
};

describe('GET/PUT /api/me/settings', () => {
  let stack: HistoryStack;
  beforeAll(async () => {
    stack = await startStack(Date.UTC(2026, 6, 1, 12));
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
  });

  it('answers the defaults, then what was saved, with its ETag; a stale If-Match is a 412', async () => {
    const first = await stack.app.inject({
      url: '/api/me/settings',
      headers: { [USER_HEADER]: 'eve@example.com' },
    });
    expect(first.json().settings).toEqual({
      ...settings,
      email: 'eve@example.com',
      language: null,
      version: 0,
    });
    const saved = await put(
      stack,
      'eve@example.com',
      {
        ...settings,
        digest_hour: 8,
        time_zone: 'America/New_York',
        quiet_hours: { start: '22:00', end: '07:00' },
      },
      '"0"',
    );
    expect(saved.statusCode).toBe(200);
    expect(saved.headers.etag).toBe('"1"');
    expect(saved.json().settings).toMatchObject({
      digest_hour: 8,
      time_zone: 'America/New_York',
      quiet_hours: { start: '22:00', end: '07:00' },
      version: 1,
    });
    const stale = await put(stack, 'eve@example.com', settings, '"0"');
    expect(stale.statusCode).toBe(412);
  });

  it('bad input is a 400 naming the field', async () => {
    const cases: Array<[object, RegExp]> = [
      [{ ...settings, time_zone: 'Mars/Olympus_Mons' }, /^time_zone must be an IANA time zone/],
      [{ ...settings, time_zone: 'UTC; drop table' }, /^time_zone must be an IANA/],
      [{ ...settings, digest_hour: 24 }, /^digest_hour must be an hour from 0 to 23/],
      [{ ...settings, digest_hour: 7.5 }, /^digest_hour must be a whole hour/],
      [{ ...settings, quiet_hours: { start: '22:00', end: '22:00' } }, /another time/],
      [{ ...settings, quiet_hours: { start: '25:00', end: '07:00' } }, /times such as "22:00"/],
      [{ ...settings, email_enabled: 'yes' }, /^email_enabled must be true or false/],
      [{ ...settings, extra: 1 }, /extra|Unrecognized/i],
      [{ ...settings, language: 'de' }, /^language must be one of en, fr, es, ar, or null$/],
      [{ ...settings, language: 7 }, /^language must be one of/],
    ];
    for (const [body, words] of cases) {
      const res = await put(stack, 'eve@example.com', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toEqual({ ok: false, error: expect.stringMatching(words) });
    }
  });
});

describe('the language setting (issue 34)', () => {
  let stack: HistoryStack;
  beforeAll(async () => {
    stack = await startStack(Date.UTC(2026, 6, 1, 12));
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
  });

  it('is saved, kept by a save that leaves it out, and a bad code writes nothing', async () => {
    const user = 'lina@example.com';
    const saved = await put(stack, user, { ...settings, language: 'ar' }, '"0"');
    expect(saved.statusCode).toBe(200);
    expect(saved.json().settings).toMatchObject({ language: 'ar', version: 1 });
    // A client from before the field saves the rest: the language stays.
    const older = await put(stack, user, { ...settings, digest_hour: 7 }, '"1"');
    expect(older.json().settings).toMatchObject({ language: 'ar', digest_hour: 7, version: 2 });
    const bad = await put(stack, user, { ...settings, language: 'xx-bogus' }, '"2"');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ ok: false, error: expect.stringMatching(/^language must be/) });
    const after = await stack.app.inject({
      url: '/api/me/settings',
      headers: { [USER_HEADER]: user },
    });
    expect(after.json().settings).toMatchObject({ language: 'ar', version: 2 });
    const cleared = await put(stack, user, { ...settings, language: null }, '"2"');
    expect(cleared.json().settings).toMatchObject({ language: null, version: 3 });
  });

  it("picks a spreadsheet's header row when the link names no language (?lang= > setting > browser)", async () => {
    const user = 'theo@example.com';
    expect((await put(stack, user, { ...settings, language: 'fr' }, '"0"')).statusCode).toBe(200);
    // Each person's browser asks for Arabic.
    const sheet = async (url: string, who: string) => {
      const res = await stack.app.inject({
        url,
        headers: { [USER_HEADER]: who, 'accept-language': 'ar' },
      });
      expect(res.statusCode, url).toBe(200);
      const [head] = parse(res.body, { bom: true, to: 1 }) as string[][];
      return { language: res.headers['content-language'], first: head?.[0] };
    };
    // The saved setting over the browser's Accept-Language, in each spreadsheet that reads it.
    expect(await sheet('/api/spreadsheet/countries', user)).toEqual({
      language: 'fr',
      first: 'Rang',
    });
    expect(await sheet('/api/spreadsheet/events.csv', user)).toEqual({
      language: 'fr',
      first: 'Heure (UTC)',
    });
    // The link's ?lang= over the setting; someone with no setting gets their browser's.
    expect(await sheet('/api/spreadsheet/countries?lang=es', user)).toMatchObject({
      first: 'Puesto',
    });
    expect(await sheet('/api/spreadsheet/countries', 'nora@example.com')).toEqual({
      language: 'ar',
      first: 'الترتيب',
    });
  });
});

describe('the daily digest', () => {
  it('is sent once at the chosen hour of the person’s own time zone', async () => {
    // 23:30 UTC is 08:30 in Tokyo (UTC+9, no summer time): the 09:00 digest is half an hour away.
    const stack = await startStack(Date.UTC(2026, 6, 1, 23, 30));
    try {
      const list = await stack.app.inject({
        method: 'POST',
        url: '/api/watchlists',
        headers: { [USER_HEADER]: 'ana@example.com' },
        payload: { name: 'Sahel', countries: ['MLI'] },
      });
      const numbers = { as_of: '2026-07-01T20:00:00Z', risk: 60, tier: 'high', active: 50 };
      await insertAlerts(store.db, [
        {
          watchlistId: Number(list.json().watchlist.id),
          ruleKey: 'active_change:10',
          kind: 'active_change',
          iso: 'MLI',
          country: 'Mali',
          batchAsOf: new Date('2026-07-01T20:00:00Z'),
          message: 'Active +12.0 (38.0 → 50.0)',
          before: numbers,
          after: numbers,
          createdAt: new Date(Date.UTC(2026, 6, 1, 20)),
        },
      ]);
      const saved = await put(stack, 'ana@example.com', {
        ...settings,
        digest_hour: 9,
        time_zone: 'Asia/Tokyo',
      });
      expect(saved.statusCode).toBe(200);

      await advance(stack, 20 * 60_000); // 08:50 in Tokyo
      expect(mailsTo('ana@example.com')).toHaveLength(0);
      await advance(stack, 15 * 60_000); // 09:05
      const [digest] = mailsTo('ana@example.com');
      expect(digest?.raw).toMatch(/^Subject: Daily digest 2026-07-02: 1 alert$/m);
      expect(digest?.raw).toContain('Mali (MLI) =C2=B7 Sahel: Active +12.0');
      await advance(stack, 3 * HOUR); // later the same day: nothing more
      await advance(stack, 3 * HOUR);
      expect(mailsTo('ana@example.com')).toHaveLength(1);
    } finally {
      await stack.close();
    }
  }, 90_000);
});

describe('the daily digest, once per person and local day', () => {
  it('is sent once on a local day that spans a UTC midnight, and again the next local day', async () => {
    // Los Angeles is UTC−7 in July: the local 10 July runs 07:00 UTC 10 July to 07:00 UTC 11
    // July, so a day counted in UTC would start again at 17:00 local and send a second digest.
    const stack = await startStack(Date.UTC(2026, 6, 10, 14, 30)); // 07:30 local
    try {
      const saved = await put(stack, 'lee@example.com', {
        ...settings,
        digest_hour: 8,
        time_zone: 'America/Los_Angeles',
      });
      expect(saved.statusCode).toBe(200);
      const subjects = () => mailsTo('lee@example.com').map((m) => subjectOf(m.raw));
      await advance(stack, 35 * 60_000); // 08:05 local, 15:05 UTC
      expect(subjects()).toEqual(['Daily digest 2026-07-10: no new alerts']);
      // 17:05 local (00:05 UTC, 11 July), then 00:05 local on 11 July: nothing more.
      for (const hours of [9, 7]) {
        await advance(stack, hours * HOUR);
        expect(subjects(), new Date(stack.clock.now()).toISOString()).toHaveLength(1);
      }
      await advance(stack, 8 * HOUR); // 08:05 local on 11 July
      expect(subjects()).toEqual([
        'Daily digest 2026-07-10: no new alerts',
        'Daily digest 2026-07-11: no new alerts',
      ]);
    } finally {
      await stack.close();
    }
  }, 90_000);

  it('a second digest for the same local day is dropped by the store, whoever builds it', async () => {
    const own = await openAppStore();
    try {
      const now = Date.UTC(2026, 6, 10, 16); // 09:00 in Los Angeles, the digest's hour
      await writePersonSettings(
        own.db,
        {
          subject: 'max@example.com',
          email: 'max@example.com',
          emailEnabled: true,
          digestHour: 9,
          timeZone: 'America/Los_Angeles',
          quietStart: null,
          quietEnd: null,
          updatedAt: new Date(now),
        },
        0,
      );
      expect(await new DailyDigests(own.db, null).queueDue(now)).toBe(1);
      // Another process that looked before this one wrote (its check saw no digest yet): the
      // unique (person, local day) key keeps its digest out, without an error.
      const late = await insertDigest(own.db, {
        subject: 'max@example.com',
        day: '2026-07-10',
        messageId: 'digest_another_process',
        body: '{}',
        state: 'pending',
        nextAttemptAt: new Date(now),
        createdAt: new Date(now),
      });
      expect(late).toBe(false);
      expect(await new DailyDigests(own.db, null).queueDue(now + 6 * HOUR)).toBe(0);
      const rows = await own.db.select().from(digestDeliveries);
      expect(rows.map((r) => [r.subject, r.day])).toEqual([['max@example.com', '2026-07-10']]);
    } finally {
      await own.close();
    }
  }, 60_000);
});

describe('quiet hours', () => {
  it('let a list’s critical e-mail through at night and hold the rest until they end', async () => {
    // Quiet 22:00–07:00 in Berlin (UTC+2 in July): 20:00–05:00 UTC. It starts at 01:00 local.
    const stack = await startStack(Date.UTC(2026, 6, 5, 23, 0));
    try {
      const saved = await put(stack, 'dee@example.com', {
        ...settings,
        time_zone: 'Europe/Berlin',
        quiet_hours: { start: '22:00', end: '07:00' },
      });
      expect(saved.statusCode).toBe(200);
      const [first] = await store.latestBatches(1);
      // The 100 riskiest countries (a list's most): those that rise into the top tier.
      const countries = (await store.countryRows(first!.id))
        .sort((a, b) => (b.risk ?? 0) - (a.risk ?? 0))
        .slice(0, 100)
        .map((r) => r.iso);
      const lists: Record<string, string> = {};
      // "Rises": every rise in tier, critical when into the top tier; "Moves": never critical.
      // (Ten countries for "Moves", so that one page of its alerts holds them all.)
      for (const [name, rules, isos] of [
        ['Rises', [{ kind: 'tier_change', direction: 'up' }], countries],
        ['Moves', [{ kind: 'active_change', min_abs_delta: 0.1 }], countries.slice(0, 10)],
      ] as const) {
        const created = await stack.app.inject({
          method: 'POST',
          url: '/api/watchlists',
          headers: { [USER_HEADER]: 'editor' },
          payload: { name, countries: isos, rules, email: 'dee@example.com' },
        });
        expect(created.statusCode).toBe(201);
        lists[name] = created.json().watchlist.id;
      }
      /** Each batch's alerts on a list: whether one of them is a rise into the top tier. */
      const batchesOf = async (name: string): Promise<Map<string, boolean>> => {
        const answer = await stack.app.inject({
          url: `/api/alerts?watchlist=${lists[name]}&limit=200`,
          headers: { [USER_HEADER]: 'dee@example.com' },
        });
        const out = new Map<string, boolean>();
        for (const a of answer.json().alerts as Alert[]) {
          const rise = a.after.tier === 'crit' && a.before !== null && a.before.tier !== 'crit';
          out.set(a.batch_as_of, (out.get(a.batch_as_of) ?? false) || rise);
        }
        return out;
      };
      const mailed = (name: string): string[] =>
        mailsTo('dee@example.com')
          .map((m) => subjectOf(m.raw))
          .map((s) => new RegExp(`for "${name}" \\(batch (.+)\\)$`).exec(s)?.[1])
          .filter((asOf): asOf is string => asOf !== undefined)
          .sort();

      for (let i = 0; i < 6; i += 1) {
        await stack.nextBatch();
        await stack.bff.alertsIdle();
      }
      /** The batches whose "Rises" e-mail holds a rise into the top tier. */
      const critical = async (): Promise<string[]> =>
        [...(await batchesOf('Rises'))]
          .filter(([, rise]) => rise)
          .map(([asOf]) => asOf)
          .sort();
      // The demo's batches of these 50 minutes hold rises into the top tier and other rises.
      expect((await critical()).length).toBeGreaterThan(0);
      expect((await critical()).length).toBeLessThan((await batchesOf('Rises')).size);
      expect((await batchesOf('Moves')).size).toBeGreaterThan(0);
      // At 02:00 local: the critical e-mails went at once, nothing else did.
      expect(mailed('Rises')).toEqual(await critical());
      expect(mailed('Moves')).toEqual([]);

      await advance(stack, 4 * HOUR + 50 * 60_000); // 06:50 local: still quiet
      expect(mailed('Rises')).toEqual(await critical());
      expect(mailed('Moves')).toEqual([]);
      await advance(stack, 15 * 60_000); // 07:05 local: quiet hours are over
      // Every held e-mail goes now: one per batch with alerts, on both lists.
      expect(mailed('Rises')).toEqual([...(await batchesOf('Rises')).keys()].sort());
      expect(mailed('Moves')).toEqual([...(await batchesOf('Moves')).keys()].sort());
    } finally {
      await stack.close();
    }
  }, 90_000);

  it('hold a list’s non-critical e-mail to the person until they end; e-mail off sends nothing', async () => {
    const stack = await startStack(Date.UTC(2026, 6, 5, 23, 0));
    try {
      for (const [user, body] of [
        ['ben@example.com', { ...settings, quiet_hours: { start: '22:00', end: '07:00' } }],
        ['cy@example.com', { ...settings, email_enabled: false }],
      ] as const) {
        expect((await put(stack, user, body)).statusCode).toBe(200);
      }
      const [first] = await store.latestBatches(1);
      const countries = (await store.countryRows(first!.id))
        .map((r) => r.iso)
        .sort()
        .slice(0, 30);
      for (const email of ['ben@example.com', 'cy@example.com']) {
        const created = await stack.app.inject({
          method: 'POST',
          url: '/api/watchlists',
          headers: { [USER_HEADER]: 'editor' },
          payload: {
            name: `For ${email}`,
            countries,
            rules: [{ kind: 'active_change', min_abs_delta: 0.1 }],
            email,
          },
        });
        expect(created.statusCode).toBe(201);
      }
      await stack.nextBatch();
      await stack.bff.alertsIdle();
      expect(
        (
          await stack.app.inject({
            url: '/api/alerts',
            headers: { [USER_HEADER]: 'ben@example.com' },
          })
        ).json().alerts.length,
      ).toBeGreaterThan(0);
      expect(mailsTo('ben@example.com')).toHaveLength(0);
      await advance(stack, 7 * HOUR); // 06:10 UTC: still quiet
      expect(mailsTo('ben@example.com')).toHaveLength(0);
      await advance(stack, HOUR); // 07:10: quiet hours are over
      // Every held e-mail (the first batch's, and those of batches recorded overnight) goes now.
      expect(mailsTo('ben@example.com').length).toBeGreaterThan(0);
      expect(mailsTo('cy@example.com')).toHaveLength(0);
    } finally {
      await stack.close();
    }
  }, 90_000);

  it('end at the local end time across midnight; only a rise into the top tier is critical', () => {
    const at = Date.UTC(2026, 0, 15, 21, 30); // 22:30 in Berlin (UTC+1 in winter)
    expect(quietUntil(at, 'Europe/Berlin', 22 * 60, 7 * 60)).toBe(Date.UTC(2026, 0, 16, 6, 0));
    expect(quietUntil(at, 'UTC', 22 * 60, 7 * 60)).toBeNull();
    const n = (tier: string) => ({ as_of: '', risk: 1, tier, active: 1 });
    expect(isCritical({ kind: 'tier_change', before: n('high'), after: n('crit') })).toBe(true);
    expect(isCritical({ kind: 'tier_change', before: n('crit'), after: n('crit') })).toBe(false);
    expect(isCritical({ kind: 'tier_change', before: n('mod'), after: n('high') })).toBe(false);
    expect(isCritical({ kind: 'active_change', before: n('high'), after: n('crit') })).toBe(false);
  });
});

describe('the daily digest’s language (issue 34)', () => {
  it('is written in the person’s language setting', async () => {
    const stack = await startStack(Date.UTC(2026, 6, 1, 23, 30));
    try {
      const list = await stack.app.inject({
        method: 'POST',
        url: '/api/watchlists',
        headers: { [USER_HEADER]: 'lea@example.com' },
        payload: { name: 'Sahel', countries: ['MLI'] },
      });
      const before = { as_of: '2026-06-30T20:00:00Z', risk: 55, tier: 'high', active: 38 };
      const after = { as_of: '2026-07-01T20:00:00Z', risk: 60, tier: 'high', active: 50 };
      await insertAlerts(store.db, [
        {
          watchlistId: Number(list.json().watchlist.id),
          ruleKey: 'active_change:10',
          kind: 'active_change',
          iso: 'MLI',
          country: 'Mali',
          batchAsOf: new Date('2026-07-01T20:00:00Z'),
          message: 'Active +12.0 (38.0 → 50.0)',
          before,
          after,
          createdAt: new Date(Date.UTC(2026, 6, 1, 20)),
        },
      ]);
      const saved = await put(stack, 'lea@example.com', {
        ...settings,
        digest_hour: 9,
        time_zone: 'Asia/Tokyo',
        language: 'fr',
      });
      expect(saved.statusCode).toBe(200);
      await advance(stack, 35 * 60_000); // 09:05 in Tokyo
      const [digest] = mailsTo('lea@example.com');
      // Team lists of the tests before this one are on the digest too: their count is theirs.
      expect(subjectOf(digest?.raw ?? '')).toMatch(
        /^Résumé quotidien du 2 juil\. 2026 : \d+ alertes?$/,
      );
      const body = (digest?.raw ?? '')
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
      expect(Buffer.from(body, 'latin1').toString('utf8')).toContain(
        'Mali (MLI) · Sahel: Score actif +12,0 (38,0 → 50,0) depuis le lot précédent',
      );
    } finally {
      await stack.close();
    }
  }, 90_000);
});
