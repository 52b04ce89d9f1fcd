import { describe, expect, it } from 'vitest';
import {
  direction,
  formatInteger,
  formatRelative,
  formatScore,
  formatSigned,
  formatUtcDateTime,
  formatUtcTime,
  formatWhen,
  humanise,
  searchKey,
} from '../../src/client/lib/format';
import { safeHttpUrl } from '../../src/client/lib/safe-url';
import { confidenceNote } from '../../src/client/features/country/utils/confidence';
import { categoryRows, formatWeight } from '../../src/client/features/country/utils/category-rows';
import { axisSteps, stepDecimals } from '../../src/client/features/country/utils/bar-axis';

describe('formatting', () => {
  it('formats scores with two decimals and missing values as n/a', () => {
    expect(formatScore(86.1)).toBe('86.10');
    expect(formatScore(null)).toBe('n/a');
    expect(formatScore(undefined)).toBe('n/a');
    expect(formatScore(Number.NaN)).toBe('n/a');
  });

  it('signs changes with a true minus and treats a change that rounds to zero as flat', () => {
    expect(formatSigned(1.234)).toBe('+1.23');
    expect(formatSigned(-0.5)).toBe('\u22120.50');
    expect(formatSigned(0.001)).toBe('0.00');
    expect(direction(0.001)).toBe('flat');
    expect(direction(-0.006)).toBe('down');
    expect(direction(null)).toBe('unknown');
  });

  it('humanises snake_case labels without interpreting them', () => {
    expect(humanise('civil_unrest')).toBe('Civil unrest');
    expect(humanise('state-media')).toBe('State media');
    expect(humanise('')).toBe('n/a');
    expect(humanise(null)).toBe('n/a');
  });

  it('says when in UTC and how long ago', () => {
    const now = Date.parse('2025-06-02T12:00:00.000Z');
    expect(formatWhen('2025-06-02T10:00:00.000Z', now)).toBe('10:00 UTC · 2 h ago');
    expect(formatRelative('2025-06-02T11:59:40.000Z', now)).toBe('just now');
    expect(formatRelative('2025-06-02T12:40:00.000Z', now)).toBe('in 40 min');
    expect(formatRelative('2025-05-28T12:00:00.000Z', now)).toBe('5 d ago');
    expect(formatWhen('not a date', now)).toBe('n/a');
  });

  it('writes numbers as Intl does for en-GB, over thousands of values', () => {
    const intl = (digits: number) =>
      new Intl.NumberFormat('en-GB', {
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
      });
    // Ties in the decimal form (1.005, 0.125, -2.5), thousands, negative zero, and values
    // written in exponent form (Intl's own fallback).
    const chosen = [
      1.005, 0.125, -2.5, 2.5, 999.995, 1234567.5, -0, -0.001, 0, 1e-7, 5e12, 86.1,
      123456789012.345, 9007199254.74099,
    ];
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const generated = Array.from({ length: 5000 }, () => {
      const value = (random() - 0.3) * 10 ** Math.floor(random() * 8);
      return Number(value.toFixed(Math.floor(random() * 5)));
    });
    for (const digits of [0, 1, 2, 3]) {
      const format = intl(digits);
      for (const value of [...chosen, ...generated]) {
        expect(formatScore(value, digits), `${value} to ${digits}`).toBe(format.format(value));
      }
    }
    // Where shifting the decimal point would pass 2^53, Intl formats.
    for (const [value, digits] of [
      [57406920206.435074, 6],
      [96862056616.92313, 5],
    ] as const) {
      expect(formatScore(value, digits)).toBe(intl(digits).format(value));
    }
    expect(formatInteger(1234567)).toBe('1,234,567');
    expect(formatSigned(-1234.5)).toBe('\u22121,234.50');
    expect(formatSigned(-0.001)).toBe('0.00');
  });

  it('writes UTC clock times and dates as en-GB does', () => {
    const time = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'UTC',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    const dateTime = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'UTC',
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    // Every month, single- and double-digit days and hours, midnight and the last minute.
    for (let month = 0; month < 12; month += 1) {
      for (const [day, hour, minute] of [
        [1, 0, 0],
        [9, 7, 5],
        [28, 23, 59],
      ] as const) {
        const date = new Date(Date.UTC(2026, month, day, hour, minute, 30));
        const iso = date.toISOString();
        expect(formatUtcTime(iso)).toBe(`${time.format(date)} UTC`);
        expect(formatUtcDateTime(iso)).toBe(`${dateTime.format(date)} UTC`);
      }
    }
    expect(formatUtcDateTime('2025-06-02T10:00:00.000Z')).toBe('2 Jun 2025, 10:00 UTC');
    expect(formatUtcTime('not a date')).toBe('n/a');
  });

  it('searches without case or accents', () => {
    expect(searchKey("Côte d'Ivoire")).toContain('cote');
  });
});

describe('links from event data', () => {
  it('accepts only http and https', () => {
    expect(safeHttpUrl('https://example.org/a?b=1')).toBe('https://example.org/a?b=1');
    expect(safeHttpUrl('http://example.org')).toBe('http://example.org/');
    expect(safeHttpUrl('javascript:alert(1)')).toBeNull();
    expect(safeHttpUrl(' JavaScript:alert(1)')).toBeNull();
    expect(safeHttpUrl('data:text/html,x')).toBeNull();
    expect(safeHttpUrl('/relative')).toBeNull();
    expect(safeHttpUrl('')).toBeNull();
    expect(safeHttpUrl(null)).toBeNull();
  });
});

describe('country helpers', () => {
  it('warns only for high risk with low confidence', () => {
    expect(confidenceNote({ risk: 80, confidence: 30 })).toMatch(/confidence is low \(30 of 100\)/);
    expect(confidenceNote({ risk: 80, confidence: 70 })).toBeNull();
    expect(confidenceNote({ risk: 20, confidence: 10 })).toBeNull();
    expect(confidenceNote({ tier: 'crit', confidence: 10 })).not.toBeNull();
    expect(confidenceNote({ risk: 80 })).toBeNull();
  });

  it('steps a bar axis from 0 in about four steps of 1, 2, 2.5 or 5 times a power of ten', () => {
    expect(axisSteps(95)).toEqual([0, 25, 50, 75, 100]);
    expect(axisSteps(100)).toEqual([0, 25, 50, 75, 100]);
    expect(axisSteps(101)).toEqual([0, 50, 100, 150]);
    expect(axisSteps(8)).toEqual([0, 2, 4, 6, 8]);
    expect(axisSteps(0.9)).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(axisSteps(37)).toEqual([0, 10, 20, 30, 40]);
    // Nothing to scale: one step, so no bar is divided by zero.
    expect(axisSteps(0)).toEqual([0, 1]);
    expect(axisSteps(Number.NaN)).toEqual([0, 1]);
    // Labels with as many decimals as the step: 0.25 and 0.5 apart, not "0.3" and "0.5".
    expect(stepDecimals(axisSteps(0.9))).toBe(2);
    expect(stepDecimals(axisSteps(1.5))).toBe(1);
    expect(stepDecimals(axisSteps(95))).toBe(0);
    expect(stepDecimals(axisSteps(0))).toBe(0);
  });

  it('orders categories by score, keeps unknown ones, and formats weights', () => {
    const rows = categoryRows({
      health: { score: 10, weight: 0.05 },
      security: { score: 90, weight: 0.2 },
      space_weather: { score: 50 },
      cyber: { score: null },
    });
    expect(rows.map((r) => r.key)).toEqual(['security', 'space_weather', 'health', 'cyber']);
    expect(rows[1]!.label).toBe('Space weather');
    expect(formatWeight(0.2)).toBe('20 %');
    expect(formatWeight(0.05)).toBe('5.0 %');
    expect(formatWeight(null)).toBe('n/a');
    expect(categoryRows(null)).toEqual([]);
    // The team view: our weights' shares beside the provider's weights (issue 31).
    const ours = categoryRows(
      { security: { score: 90 }, health: { score: 10 } },
      { security: 3, health: 1 },
    );
    expect(ours.map((r) => [r.key, r.ours])).toEqual([
      ['security', 0.75],
      ['health', 0.25],
    ]);
    expect(rows[0]!.ours).toBeNull();
  });
});
