import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret } from '../../src/server/secret.js';
import { isCritical } from '../../src/server/services/alerts/critical.js';
import { quietUntil } from '../../src/server/services/alerts/local-time.js';
import { insertAlerts } from '../../src/server/store/alerts.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { openAppStore } from '../helpers/history-store.js';
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
let smtp: SMTPServer;
let port: number;
const inbox: Mail[] = [];

beforeAll(async () => {
  store = await openAppStore();
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        inbox.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  port = (smtp.server.address() as AddressInfo).port;
}, 60_000);
afterAll(async () => {
  await new Promise<void>((resolve) => smtp?.close(() => resolve()));
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
  await stack.app.historyIdle();
  await stack.app.alertsIdle();
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
    ];
    for (const [body, words] of cases) {
      const res = await put(stack, 'eve@example.com', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toEqual({ ok: false, error: expect.stringMatching(words) });
    }
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

describe('quiet hours', () => {
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
      await stack.app.alertsIdle();
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
