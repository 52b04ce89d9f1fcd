import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADVERSARIAL_HEADLINE,
  ADVERSARIAL_ISO,
  ADVERSARIAL_URL,
} from '../../src/demo-upstream/server.js';
import { startHarness, type Harness } from '../helpers/demo-harness.js';

describe('demo upstream: adversarial events (for the SPA XSS test)', () => {
  let plain: Harness;
  let hostile: Harness;
  beforeAll(async () => {
    plain = await startHarness({ tier: 'Custom' });
    hostile = await startHarness({ tier: 'Custom', adversarialEvents: true });
  });
  afterAll(async () => {
    await plain.close();
    await hostile.close();
  });

  it('puts the hostile headline and javascript: URL on the newest event of UKR', async () => {
    expect(ADVERSARIAL_ISO).toBe('UKR');
    const { body } = await hostile.getJson('/api/v1/country/UKR');
    const [newest] = body.country.events;
    expect(newest.headline).toBe('<img src=x onerror="window.__xss=1">Ceasefire <b>talks</b>');
    expect(newest.headline).toBe(ADVERSARIAL_HEADLINE);
    expect(newest.url).toBe('javascript:window.__xss=1');
    expect(newest.url).toBe(ADVERSARIAL_URL);
    // Only that one event is touched.
    const normal = (await plain.getJson('/api/v1/country/UKR')).body.country.events;
    expect(body.country.events.slice(1)).toEqual(normal.slice(1));
    expect(newest.ts).toBe(normal[0].ts);
  });

  it('shows it in the hotspot list with include=events too (UKR is in the top 20)', async () => {
    const rows = (await hostile.getJson('/api/v1/hotspots?include=events')).body.hotspots;
    const ukraine = rows.find((row: { iso: string }) => row.iso === 'UKR');
    expect(ukraine.events[0].headline).toBe(ADVERSARIAL_HEADLINE);
  });

  it('is off by default: no event anywhere carries markup or a javascript: URL', async () => {
    const { countries } = (await plain.getJson('/api/v1/export?format=json')).body;
    for (const country of countries) {
      for (const event of country.events) {
        expect(event.headline).not.toMatch(/[<>]/);
        expect(event.url).toMatch(/^https:\/\//);
      }
    }
  });
});
