import { describe, expect, it } from 'vitest';
import {
  LEARNED_TIER_RAMP,
  TIER_COLOUR_ORDER,
  compareTiersOn,
  learnTierScale,
  tierTone,
} from '../../src/shared/tier-scale.js';
import { KNOWN_TIERS, TIER_COLOURS, UNKNOWN_TIER_COLOUR } from '../../src/shared/tiers.js';

const rows = [
  { tier: 'minimal', risk: 10 },
  { tier: 'minimal', risk: 30 },
  { tier: 'guarded', risk: 45 },
  { tier: 'elevated', risk: 64 },
  { tier: 'elevated', risk: 90 },
  { tier: 'elevated', risk: 66 },
  { tier: 'crit', risk: 80 },
  { tier: 'unscored', risk: null },
];

describe('tier scale learned from the scores (issue 19, point 12)', () => {
  it('orders unknown labels by the median risk of their countries, most severe first', () => {
    const scale = learnTierScale(rows);
    expect(scale.learned).toEqual(['elevated', 'guarded', 'minimal']);
    expect(scale.medians.get('elevated')).toBe(66);
    expect(scale.medians.get('minimal')).toBe(20);
  });

  it('colours each learned label between the known tiers it falls between; unscored labels stay grey', () => {
    const scale = learnTierScale(rows);
    const tones = scale.learned.map((label) => tierTone(label, scale));
    // elevated (66) between crit and high, guarded (45) between high and mod, minimal (20)
    // between mod and low.
    expect(tones.map((t) => t.className)).toEqual([
      'tier-learned-1',
      'tier-learned-2',
      'tier-learned-3',
    ]);
    expect(tones.map((t) => t.fill)).toEqual([1, 2, 3].map((s) => LEARNED_TIER_RAMP[s]!.fill));
    expect(tierTone('unscored', scale)).toEqual({
      className: 'tier-other',
      ...UNKNOWN_TIER_COLOUR,
    });
    expect(tierTone('crit', scale)).toEqual({ className: 'tier-crit', ...TIER_COLOURS.crit });
  });

  it('places learned labels between the known tiers by their medians; unscored ones last', () => {
    const scale = learnTierScale(rows);
    const labels = ['low', 'unscored', 'minimal', 'guarded', 'high', 'elevated', 'mod', 'crit'];
    expect(labels.sort(compareTiersOn(scale))).toEqual([
      'crit',
      'elevated',
      'high',
      'guarded',
      'mod',
      'minimal',
      'low',
      'unscored',
    ]);
  });

  // Issue 33, point 10: "elevated" was the darkest purple, more severe-looking than High.
  it('draws every tier in a colour that follows the order of the tiers (issue 33, point 10)', () => {
    const upstreams = [
      rows,
      [
        { tier: 'severe', risk: 95 },
        { tier: 'elevated', risk: 70 },
        { tier: 'guarded', risk: 60 },
        { tier: 'minimal', risk: 0 },
      ],
      [{ tier: 'elevated', risk: 64 }],
    ];
    for (const upstream of upstreams) {
      const scale = learnTierScale(upstream);
      const ordered = [...KNOWN_TIERS, ...scale.learned].sort(compareTiersOn(scale));
      const places = ordered.map((tier) => TIER_COLOUR_ORDER.indexOf(tierTone(tier, scale).fill));
      expect(places, ordered.join(' > ')).not.toContain(-1);
      expect(places, ordered.join(' > ')).toEqual([...places].sort((a, b) => a - b));
    }
    // A learned label never wears a known tier's colour.
    const known = new Set(Object.values(TIER_COLOURS).map((c) => c.fill));
    expect(LEARNED_TIER_RAMP.filter((c) => known.has(c.fill))).toEqual([]);
  });
});
