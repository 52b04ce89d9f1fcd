import { describe, expect, it } from 'vitest';
import {
  WEBHOOK_FORMAT_OPTIONS,
  WEBHOOK_FORMATS,
  watchlistInputSchema,
  type Alert,
} from '../../src/shared/alerts-api.js';
import { testWebhookBody, webhookBody } from '../../src/server/services/alerts/alert-messages.js';

// The shared list of webhook formats is what the API accepts and what the server sends: every
// format of it has a body of its own (no format falls back to another's), and nothing else is
// accepted.

const alert = {
  id: '17',
  watchlist_id: '3',
  watchlist_name: 'Sahel',
  iso: 'BFA',
  country: 'Burkina Faso',
  rule: 'active_change:10',
  kind: 'active_change',
  message: 'Active +10.4 (29.9 → 40.3) since the previous batch',
  link: '/country/BFA',
  batch_as_of: '2026-07-01T10:00:00.000Z',
  created_at: '2026-07-01T10:00:02.000Z',
  before: { as_of: '2026-07-01T03:00:00.000Z', risk: 78.1, tier: 'crit', active: 29.9 },
  after: { as_of: '2026-07-01T10:00:00.000Z', risk: 80.2, tier: 'crit', active: 40.3 },
} as unknown as Alert;

describe('webhook formats: one list for the API and the dispatch', () => {
  it('the ids are the shared options, in order, each once', () => {
    expect(WEBHOOK_FORMATS).toEqual(WEBHOOK_FORMAT_OPTIONS.map((f) => f.id));
    expect(new Set(WEBHOOK_FORMATS).size).toBe(WEBHOOK_FORMATS.length);
  });

  it('every format has an alert body and a test body of its own', () => {
    const at = new Date('2026-07-01T10:00:00.000Z');
    const alerts = WEBHOOK_FORMATS.map((f) => webhookBody(alert, f, null, 'abc'));
    const tests = WEBHOOK_FORMATS.map((f) => testWebhookBody(f, { id: '3', name: 'Sahel' }, at));
    for (const body of [...alerts, ...tests])
      expect(() => JSON.parse(body) as unknown).not.toThrow();
    expect(new Set(alerts).size).toBe(WEBHOOK_FORMATS.length);
    expect(new Set(tests).size).toBe(WEBHOOK_FORMATS.length);
  });

  it('the API accepts every listed format and names them all when refusing another', () => {
    const input = (webhook_format: string) =>
      watchlistInputSchema.safeParse({ name: 'Sahel', countries: ['BFA'], webhook_format });
    for (const format of WEBHOOK_FORMATS) expect(input(format).success).toBe(true);
    const refused = input('discord');
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe(
      'webhook_format must be "standard", "slack" or "teams"',
    );
  });
});
