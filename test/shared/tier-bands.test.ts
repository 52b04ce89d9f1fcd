import { describe, expect, it } from 'vitest';
import { tierForRisk } from '../../src/shared/tiers.js';
import { startHarness } from '../helpers/demo-harness.js';

// The bands as docs/upstream-gaps.md documents them (the provider's public methodology), written
// out here rather than taken from our own code, so moving a band in the code is caught.
function documentedTier(risk: number): string {
  if (risk >= 75) return 'crit';
  if (risk >= 60) return 'high';
  if (risk >= 40) return 'mod';
  return 'low';
}

describe('tier bands', () => {
  it('tierForRisk follows the documented bands at every boundary', () => {
    for (let risk = 0; risk <= 100; risk += 0.5) {
      expect(tierForRisk(risk), `risk ${risk}`).toBe(documentedTier(risk));
    }
  });

  it('the demo upstream labels every hotspot by the documented bands', async () => {
    const h = await startHarness();
    try {
      const { body } = await h.getJson('/api/v1/hotspots?limit=50');
      const rows = body.hotspots as Array<{ risk: number; tier: string }>;
      expect(rows.length).toBe(50);
      for (const row of rows) expect(row.tier, `risk ${row.risk}`).toBe(documentedTier(row.risk));
      // Both sides of the crit boundary occur, so a moved boundary shows in the data too.
      expect(rows.some((r) => r.risk >= 75)).toBe(true);
      expect(rows.some((r) => r.risk < 75)).toBe(true);
    } finally {
      await h.close();
    }
  });
});
