import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import type { AppConfig } from '../../src/server/config.js';
import { teamsText } from '../../src/server/services/alerts/teams-card.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { openAppStore } from '../helpers/history-store.js';
import { startHistoryStack } from '../helpers/history-stack.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

/*
 * Microsoft Teams endpoints (issue 21): a Workflows webhook gets an Adaptive Card 1.4 in the
 * `{type: "message", attachments: [...]}` envelope, through the real outbox to a receiver on
 * loopback; untrusted text (list names, upstream headlines) is plain in the card.
 */
const allowPrivate: Partial<AppConfig> = {
  alerts: { webhookAllowPrivate: true, email: null, linkBase: 'https://risk.example.com' },
};
const HOSTILE = 'Ops [click](https://evil.example) **now** {{DATE(2026-01-01T00:00:00Z, SHORT)}}';

interface Card {
  type: string;
  attachments: Array<{
    contentType: string;
    contentUrl: null;
    content: {
      $schema: string;
      type: string;
      version: string;
      body: Array<{ type: string; text?: string; facts?: Array<{ title: string; value: string }> }>;
      actions?: Array<{ type: string; title: string; url: string }>;
    };
  }>;
}

let store: HistoryStore;
let receiver: WebhookReceiver;
beforeAll(async () => {
  store = await openAppStore();
}, 60_000);
afterAll(async () => {
  await store?.close();
});
beforeEach(async () => {
  receiver = await startWebhookReceiver();
});
afterEach(async () => {
  await receiver?.close();
});

function expectCardShape(card: Card): Card['attachments'][number]['content'] {
  expect(card.type).toBe('message');
  expect(card.attachments).toHaveLength(1);
  const [attachment] = card.attachments;
  expect(attachment!.contentType).toBe('application/vnd.microsoft.card.adaptive');
  expect(attachment!.contentUrl).toBeNull();
  const content = attachment!.content;
  expect(content).toMatchObject({
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: '1.4',
  });
  return content;
}

describe('Teams Workflows webhooks', () => {
  it('the test message and each alert arrive as an Adaptive Card, signed, text escaped', async () => {
    const stack = await startHistoryStack(store, {
      start: Date.UTC(2026, 5, 1, 8),
      config: allowPrivate,
    });
    try {
      const [first] = await store.latestBatches(1);
      const countries = (await store.countryRows(first!.id))
        .map((r) => r.iso)
        .sort()
        .slice(0, 20);
      const created = await stack.app.inject({
        method: 'POST',
        url: '/api/watchlists',
        payload: {
          name: HOSTILE.slice(0, 80),
          countries,
          rules: [{ kind: 'active_change', min_abs_delta: 0.1 }],
          webhook_url: receiver.url,
          webhook_format: 'teams',
        },
      });
      expect(created.statusCode).toBe(201);
      const { watchlist, webhook_secret } = created.json();
      expect(watchlist.webhook.format).toBe('teams');

      const test = await stack.app.inject({
        method: 'POST',
        url: `/api/watchlists/${watchlist.id}/test`,
      });
      expect(test.statusCode).toBe(202);
      await stack.bff.alertsIdle();
      const [got] = await receiver.waitFor(1);
      const testCard = expectCardShape(
        new Webhook(webhook_secret).verify(
          got!.body,
          got!.headers as Record<string, string>,
        ) as Card,
      );
      expect(testCard.body[0]).toMatchObject({ type: 'TextBlock', weight: 'Bolder' });
      expect(testCard.body[1]!.text).toContain(teamsText(HOSTILE.slice(0, 80)));

      await stack.nextBatch();
      await stack.bff.alertsIdle();
      const alerts = (await stack.app.inject({ url: '/api/alerts' })).json().alerts as Array<{
        iso: string;
        message: string;
      }>;
      expect(alerts.length).toBeGreaterThan(0);
      const all = await receiver.waitFor(1 + alerts.length);
      const cards = all.slice(1).map((r) => expectCardShape(JSON.parse(r.body) as Card));
      const mine = cards.find((c) => c.body[0]!.text!.endsWith(`\\(${alerts[0]!.iso}\\)`));
      expect(mine).toBeDefined();
      expect(mine!.body[1]!.text).toBe(teamsText(alerts[0]!.message));
      expect(mine!.body[2]!.facts).toEqual([
        { title: 'Watchlist', value: teamsText(HOSTILE.slice(0, 80)) },
        { title: 'Batch', value: expect.any(String) },
      ]);
      expect(mine!.actions).toEqual([
        {
          type: 'Action.OpenUrl',
          title: 'Open the country page',
          url: `https://risk.example.com/country/${alerts[0]!.iso}`,
        },
      ]);
    } finally {
      await stack.close();
    }
  }, 90_000);
});

describe('plain text in a card', () => {
  it('escapes what Markdown and the DATE/TIME functions read; nothing survives as markup', () => {
    const out = teamsText(HOSTILE);
    expect(out).toBe(
      'Ops \\[click\\]\\(https://evil\\.example\\) \\*\\*now\\*\\* ' +
        '\\{\\{DATE\\(2026\\-01\\-01T00:00:00Z, SHORT\\)\\}\\}',
    );
    // No unescaped link, emphasis or function is left.
    expect(out).not.toMatch(/(^|[^\\])\[/);
    expect(out).not.toMatch(/(^|[^\\])\*/);
    expect(out).not.toMatch(/\{\{/);
    expect(teamsText('a\nb\r\nc')).toBe('a b c');
    expect(teamsText('<at>everyone</at> & co')).toBe('\\<at\\>everyone\\</at\\> \\& co');
  });
});
