import { afterEach, describe, expect, it } from 'vitest';
import type { CountryHistoryPoint } from '../../src/shared/history-api';
import { describeLatestChange } from '../../src/client/features/history/utils/drivers';
import { applyLanguage, loadLanguage } from '../../src/client/lib/i18n';

const point = (asOf: string, active: number, security: number): CountryHistoryPoint => ({
  as_of: asOf,
  risk: 50 + active,
  tier: 'mod',
  static: 50,
  active,
  confidence: 90,
  categories: { security: { score: security, static: 50, active: security - 50, weight: 0.2 } },
});

describe('the latest change in words', () => {
  it('leads with the active change to one decimal, then the categories that moved', () => {
    const text = describeLatestChange([
      point('2026-11-21T10:00:00.000Z', 10, 60),
      point('2026-11-22T03:00:00.000Z', 25.7, 82.1),
    ]);
    expect(text).toBe('Active +15.7: security +22.1');
  });

  it('a small move is shown, not rounded to 0.0', () => {
    const text = describeLatestChange([
      point('2026-11-21T10:00:00.000Z', 25.75, 60),
      point('2026-11-22T03:00:00.000Z', 25.72, 63.4),
    ]);
    expect(text).toMatch(/^Active \u22120\.03: security \+3\.4$/);
  });
});

describe('the latest change in the page language (issue 34)', () => {
  afterEach(() => applyLanguage('en', document.documentElement));

  it('French: its words and its decimal comma; the categories as the upstream names them', async () => {
    await loadLanguage('fr');
    applyLanguage('fr', document.documentElement);
    const text = describeLatestChange([
      point('2026-11-21T10:00:00.000Z', 10, 60),
      { ...point('2026-11-22T03:00:00.000Z', 25.7, 82.1), tier: 'high' },
    ]);
    expect(text).toBe('Actif +15,7 (niveau Modéré → Élevé) : security +22,1');
  });

  it('Arabic: the tier change’s arrow points the way the line reads', async () => {
    await loadLanguage('ar');
    applyLanguage('ar', document.documentElement);
    const text = describeLatestChange([
      point('2026-11-21T10:00:00.000Z', 10, 60),
      { ...point('2026-11-22T03:00:00.000Z', 10, 60), tier: 'high' },
    ]);
    expect(text).toBe('النشط 0.00 (المستوى متوسط ← مرتفع): لم تتحرك أي فئة بمقدار 0.1 أو أكثر.');
  });
});
