import { describe, expect, it } from 'vitest';
import {
  applyFilters,
  DEFAULT_LIMIT,
  parseFilters,
} from '../../src/client/features/hotspots/utils/filters';
import { sortHotspots, type RankedHotspot } from '../../src/client/features/hotspots/utils/sort';
import { shouldRetry } from '../../src/client/lib/query-client';
import { ApiError } from '../../src/client/lib/api-client';

describe('hotspot filters in the URL', () => {
  it('parses forgivingly: bad limits fall back or clamp, tier items are cleaned and sorted', () => {
    const f = parseFilters(new URLSearchParams('tier=high,crit,,crit,<x>&limit=500&sort=bogus'));
    expect(f).toEqual({ tiers: ['crit', 'high'], limit: 50, q: '', sort: 'rank', dir: 'asc' });
    expect(parseFilters(new URLSearchParams('limit=abc')).limit).toBe(DEFAULT_LIMIT);
    expect(parseFilters(new URLSearchParams('limit=0')).limit).toBe(1);
  });

  it('writes short URLs (defaults left out) and keeps unrelated parameters', () => {
    const base = new URLSearchParams('other=1');
    const written = applyFilters(base, {
      tiers: ['crit'],
      limit: DEFAULT_LIMIT,
      q: '',
      sort: 'risk',
      dir: 'desc',
    });
    expect(written.toString()).toBe('other=1&tier=crit&sort=risk&dir=desc');
    expect(parseFilters(written).sort).toBe('risk');
  });
});

describe('sorting', () => {
  const rows: RankedHotspot[] = [
    { iso: 'AAA', name: 'A', rank: 1, overallRank: 1, risk: 50, tier: 'mod', recordedDelta: null },
    {
      iso: 'BBB',
      name: 'B',
      rank: 2,
      overallRank: 2,
      risk: null,
      tier: 'weird',
      recordedDelta: null,
    },
    { iso: 'CCC', name: 'C', rank: 3, overallRank: 3, risk: 80, tier: 'crit', recordedDelta: null },
  ];
  it("sorts Δ risk by the figure shown: ours where recorded, else the provider's (issue 33)", () => {
    const moved: RankedHotspot[] = [
      { ...rows[0]!, delta_headline: 3, recordedDelta: null },
      // The provider says down 0.66, we recorded +6.01: it sorts as the biggest riser.
      { ...rows[1]!, delta_headline: -0.66, recordedDelta: 6.01 },
      { ...rows[2]!, delta_headline: 1, recordedDelta: -1 },
    ];
    expect(sortHotspots(moved, 'delta_headline', 'desc').map((r) => r.iso)).toEqual([
      'BBB',
      'AAA',
      'CCC',
    ]);
  });
  it('puts missing values last in both directions', () => {
    expect(sortHotspots(rows, 'risk', 'desc').map((r) => r.iso)).toEqual(['CCC', 'AAA', 'BBB']);
    expect(sortHotspots(rows, 'risk', 'asc').map((r) => r.iso)).toEqual(['AAA', 'CCC', 'BBB']);
  });
  it('sorts tiers by severity, unknown labels after the known ones', () => {
    expect(sortHotspots(rows, 'tier', 'desc').map((r) => r.iso)).toEqual(['CCC', 'AAA', 'BBB']);
  });
});

describe('retry policy', () => {
  it('never retries 4xx, retries 5xx and network failures a bounded number of times', () => {
    expect(shouldRetry(0, new ApiError('bad', 400))).toBe(false);
    expect(shouldRetry(0, new ApiError('quota', 429, 60))).toBe(false);
    expect(shouldRetry(0, new ApiError('down', 503))).toBe(true);
    expect(shouldRetry(0, new ApiError('network', 0))).toBe(true);
    expect(shouldRetry(2, new ApiError('down', 503))).toBe(false);
  });
});
