import { describe, expect, it } from 'vitest';
import type { AlertNumbers } from '../../src/shared/alerts-api.js';
import { evaluateRule } from '../../src/server/services/alerts/alert-rules.js';

const at = (risk: number | null, tier: string | null, active: number | null): AlertNumbers => ({
  as_of: '2026-04-01T10:00:00.000Z',
  risk,
  tier,
  active,
});
const input = (
  before: AlertNumbers | null,
  after: AlertNumbers,
  breaking: Array<{ headline: string; source: string | null }> = [],
) => ({
  before,
  after,
  breaking,
});

describe('alert rules', () => {
  it('active change: fires at |Δ| ≥ threshold either way, says by how much', () => {
    const rule = { kind: 'active_change', min_abs_delta: 10 } as const;
    expect(evaluateRule(rule, input(at(50, 'mod', 40), at(55, 'mod', 50)))).toBe(
      'Active +10.0 (40.0 → 50.0) since the previous batch: at least 10 either way',
    );
    expect(evaluateRule(rule, input(at(50, 'mod', 52.5), at(50, 'mod', 40)))).toMatch(
      /^Active −12\.5/,
    );
    expect(evaluateRule(rule, input(at(50, 'mod', 40), at(50, 'mod', 49.9)))).toBeNull();
    expect(evaluateRule(rule, input(null, at(50, 'mod', 90)))).toBeNull();
  });

  it('tier change with our overrides (issue 31): set, ended, and a provider move under one', () => {
    const override = { tier: 'crit', reason: 'Port closed', set_by: 'Eddie' };
    const ours = (n: AlertNumbers) => ({ ...n, override });
    const both = { kind: 'tier_change', direction: 'both' } as const;
    expect(evaluateRule(both, input(at(60, 'mod', 1), ours(at(61, 'mod', 1))))).toBe(
      'Tier up from Moderate to Critical by our override (“Port closed”, set by Eddie) (risk 60.0 → 61.0)',
    );
    expect(evaluateRule(both, input(ours(at(60, 'mod', 1)), at(61, 'mod', 1)))).toBe(
      "Tier down from Critical to Moderate: our override (“Port closed”) ended, so the provider's tier applies again (risk 60.0 → 61.0)",
    );
    // The provider's tier moved while ours is held: still said, with what holds ours.
    expect(evaluateRule(both, input(ours(at(60, 'mod', 1)), ours(at(75, 'high', 1))))).toBe(
      "The provider's tier went up from Moderate to High (risk 60.0 → 75.0); our override keeps it at Critical (“Port closed”)",
    );
    // The same override at both batches and no provider move: nothing.
    expect(evaluateRule(both, input(ours(at(60, 'mod', 1)), ours(at(61, 'mod', 1))))).toBeNull();
    // The direction filter reads our tier's move.
    expect(
      evaluateRule(
        { kind: 'tier_change', direction: 'down' },
        input(at(60, 'mod', 1), ours(at(61, 'mod', 1))),
      ),
    ).toBeNull();
  });

  it('tier change: up, down or both; unknown labels have no direction', () => {
    const up = input(at(70, 'high', 1), at(80, 'crit', 1));
    const down = input(at(80, 'crit', 1), at(70, 'high', 1));
    expect(evaluateRule({ kind: 'tier_change', direction: 'up' }, up)).toBe(
      'Tier up from High to Critical (risk 70.0 → 80.0)',
    );
    expect(evaluateRule({ kind: 'tier_change', direction: 'up' }, down)).toBeNull();
    expect(evaluateRule({ kind: 'tier_change', direction: 'down' }, down)).toMatch(
      /^Tier down from Critical to High/,
    );
    expect(evaluateRule({ kind: 'tier_change', direction: 'both' }, up)).not.toBeNull();
    expect(
      evaluateRule(
        { kind: 'tier_change', direction: 'both' },
        input(at(1, 'weird', 1), at(1, 'crit', 1)),
      ),
    ).toBeNull();
  });

  it('risk threshold: fires on crossing, not on staying above', () => {
    const rule = { kind: 'risk_threshold', threshold: 60, direction: 'up' } as const;
    expect(evaluateRule(rule, input(at(59.9, 'mod', 1), at(60, 'high', 1)))).toBe(
      'Risk crossed 60 upwards: 59.9 → 60.0',
    );
    expect(evaluateRule(rule, input(at(61, 'high', 1), at(70, 'high', 1)))).toBeNull();
    expect(evaluateRule(rule, input(at(61, 'high', 1), at(50, 'mod', 1)))).toBeNull();
    expect(
      evaluateRule({ ...rule, direction: 'down' }, input(at(61, 'high', 1), at(50, 'mod', 1))),
    ).toMatch(/downwards/);
  });

  it('breaking event: names the newest headline and how many more', () => {
    const rule = { kind: 'breaking_event' } as const;
    expect(evaluateRule(rule, input(null, at(1, 'low', 1)))).toBeNull();
    expect(
      evaluateRule(
        rule,
        input(null, at(1, 'low', 1), [
          { headline: 'Border closed', source: 'Reuters' },
          { headline: 'Older', source: null },
        ]),
      ),
    ).toBe('Breaking event: Border closed (Reuters) and 1 more');
  });
});
