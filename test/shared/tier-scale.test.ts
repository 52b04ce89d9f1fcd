import { describe, expect, it } from 'vitest';
import {
  LEARNED_TIER_RAMP,
  compareTiersOn,
  learnTierScale,
  rampStep,
  tierTone,
} from '../../src/shared/tier-scale.js';
import { TIER_COLOURS, UNKNOWN_TIER_COLOUR } from '../../src/shared/tiers.js';

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

  it('gives each learned label its own ramp colour, darkest first; unscored labels stay grey', () => {
    const scale = learnTierScale(rows);
    const tones = scale.learned.map((label) => tierTone(label, scale));
    expect(tones.map((t) => t.className)).toEqual([
      'tier-learned-0',
      'tier-learned-3',
      'tier-learned-5',
    ]);
    expect(tones.map((t) => t.fill)).toEqual(
      [0, 3, 5].map((step) => LEARNED_TIER_RAMP[step]!.fill),
    );
    expect(tierTone('unscored', scale)).toEqual({
      className: 'tier-other',
      ...UNKNOWN_TIER_COLOUR,
    });
    expect(tierTone('crit', scale)).toEqual({ className: 'tier-crit', ...TIER_COLOURS.crit });
    expect(rampStep(0, 1)).toBe(0);
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
});
