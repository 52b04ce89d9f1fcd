import { describe, expect, it } from 'vitest';
import type { AlertNumbers, AlertRule } from '../../src/shared/alerts-api.js';
import { evaluateRule } from '../../src/server/services/alerts/alert-rules.js';

/*
 * The edges of each rule: a value exactly at the threshold, a missing number on either side, and
 * every direction. Each case here was a one-line change of alert-rules.ts that no test caught.
 */
const numbers = (
  risk: number | null,
  tier: string | null = 'mod',
  active: number | null = 10,
): AlertNumbers => ({ as_of: '2026-04-01T10:00:00.000Z', risk, tier, active });

const fires = (
  rule: AlertRule,
  before: AlertNumbers | null,
  after: AlertNumbers,
  breaking: Array<{ headline: string; source: string | null }> = [],
): string | null => evaluateRule(rule, { before, after, breaking });

describe('risk threshold at exactly the threshold', () => {
  const up = { kind: 'risk_threshold', threshold: 60, direction: 'up' } as const;
  const down = { ...up, direction: 'down' } as const;
  const both = { ...up, direction: 'both' } as const;

  it('starting exactly at the threshold is already above it: rising further fires nothing', () => {
    expect(fires(both, numbers(60), numbers(75))).toBeNull();
  });

  it('falling from exactly the threshold to below it is a downward crossing', () => {
    expect(fires(down, numbers(60), numbers(59.9))).toBe('Risk crossed 60 downwards: 60.0 → 59.9');
  });

  it('falling onto exactly the threshold is not a crossing', () => {
    expect(fires(both, numbers(70), numbers(60))).toBeNull();
  });

  it('"both" fires either way, each direction only its own way', () => {
    expect(fires(both, numbers(50), numbers(60))).toBe('Risk crossed 60 upwards: 50.0 → 60.0');
    expect(fires(both, numbers(70), numbers(50))).toBe('Risk crossed 60 downwards: 70.0 → 50.0');
    expect(fires(down, numbers(50), numbers(70))).toBeNull();
  });

  it('moving while staying on one side of the threshold fires nothing', () => {
    expect(fires(both, numbers(50), numbers(55))).toBeNull();
    expect(fires(both, numbers(50), numbers(40))).toBeNull();
  });

  it('a missing risk on either side, or no batch before, fires nothing', () => {
    expect(fires(both, null, numbers(70))).toBeNull();
    expect(fires(both, numbers(null), numbers(70))).toBeNull();
    expect(fires(both, numbers(50), numbers(null))).toBeNull();
    expect(fires(both, numbers(70), numbers(null))).toBeNull();
  });
});

describe('active change at the edges', () => {
  const rule = { kind: 'active_change', min_abs_delta: 10 } as const;

  it('a fall of exactly the threshold fires, with a minus sign', () => {
    expect(fires(rule, numbers(50, 'mod', 50), numbers(50, 'mod', 40))).toBe(
      'Active −10.0 (50.0 → 40.0) since the previous batch: at least 10 either way',
    );
  });

  it('a missing active number on either side fires nothing', () => {
    expect(fires(rule, numbers(50, 'mod', null), numbers(50, 'mod', 90))).toBeNull();
    expect(fires(rule, numbers(50, 'mod', 10), numbers(50, 'mod', null))).toBeNull();
  });
});

describe('tier change at the edges', () => {
  const both = { kind: 'tier_change', direction: 'both' } as const;
  const down = { kind: 'tier_change', direction: 'down' } as const;

  it('"down" ignores a move up; "both" reports a move down', () => {
    expect(fires(down, numbers(70, 'high'), numbers(80, 'crit'))).toBeNull();
    expect(fires(both, numbers(80, 'crit'), numbers(20, 'low'))).toBe(
      'Tier down from Critical to Low (risk 80.0 → 20.0)',
    );
  });

  it('a missing tier, no batch before, the same tier or an unknown new label fire nothing', () => {
    expect(fires(both, null, numbers(80, 'crit'))).toBeNull();
    expect(fires(both, numbers(70, null), numbers(80, 'crit'))).toBeNull();
    expect(fires(both, numbers(70, 'high'), numbers(80, null))).toBeNull();
    expect(fires(both, numbers(70, 'high'), numbers(75, 'high'))).toBeNull();
    expect(fires(both, numbers(70, 'high'), numbers(80, 'weird'))).toBeNull();
  });

  it('leaves the risk out of the words when either batch has none', () => {
    expect(fires(both, numbers(null, 'high'), numbers(80, 'crit'))).toBe(
      'Tier up from High to Critical',
    );
    expect(fires(both, numbers(70, 'high'), numbers(null, 'crit'))).toBe(
      'Tier up from High to Critical',
    );
  });
});

describe('breaking event words', () => {
  it('one event with no source: only its headline', () => {
    expect(
      fires({ kind: 'breaking_event' }, null, numbers(1), [
        { headline: 'Port shut', source: null },
      ]),
    ).toBe('Breaking event: Port shut');
  });
});
