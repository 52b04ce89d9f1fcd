import { afterEach, describe, expect, it } from 'vitest';
import { displayName } from '../../src/client/lib/display-name';
import {
  formatList,
  formatRelative,
  formatScore,
  formatSigned,
  formatUtcDateTime,
  formatUtcDay,
  formatUtcTime,
  setFormatLanguage,
} from '../../src/client/lib/format';

// Issue 34: numbers, dates, lists and country names in the interface's language.
afterEach(() => setFormatLanguage('en'));

const AT = '2026-06-02T10:00:00Z';
const NOW = Date.parse(AT) + 2 * 3_600_000;

describe('formatting in the page language', () => {
  it('English keeps its own forms', () => {
    expect(formatScore(1234.5)).toBe('1,234.50');
    expect(formatUtcDateTime(AT)).toBe('2 Jun 2026, 10:00 UTC');
    expect(formatRelative(AT, NOW)).toBe('2 h ago');
    expect(displayName('SDN', 'Sudan')).toBe('Sudan');
  });

  it('French: its separators, month, relative words, list and country names (CLDR)', () => {
    setFormatLanguage('fr');
    expect(formatScore(1234.5)).toBe('1\u202f234,50');
    expect(formatSigned(-0.5)).toBe('\u22120,50');
    expect(formatSigned(0.001)).toBe('0,00');
    expect(formatUtcDateTime(AT)).toMatch(/^2 juin 2026.*10:00 UTC$/);
    expect(formatRelative(AT, NOW)).toMatch(/^il y a 2\sh$/);
    expect(formatList(['Mali', 'Niger', 'Tchad'])).toBe('Mali, Niger et Tchad');
    expect(displayName('SDN', 'Sudan')).toBe('Soudan');
    expect(displayName('DEU', 'Germany')).toBe('Allemagne');
  });

  it('a code with no alpha-2 keeps the data name (Kosovo, XKX)', () => {
    setFormatLanguage('es');
    expect(displayName('XKX', 'Kosovo')).toBe('Kosovo');
    expect(displayName('ESP', 'Spain')).toBe('España');
  });

  it('Arabic: Latin digits, Arabic names, and times kept left to right', () => {
    setFormatLanguage('ar');
    expect(formatScore(48.83)).toBe('48.83');
    expect(formatUtcTime(AT)).toBe('\u206610:00 UTC\u2069');
    expect(displayName('EGY', 'Egypt')).toBe('مصر');
  });
});

describe("a chart axis's day (issue 34)", () => {
  it('English writes it without Intl, exactly as Intl writes en-GB, every month', () => {
    const intl = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'UTC',
      day: 'numeric',
      month: 'short',
    });
    for (let month = 0; month < 12; month++) {
      const at = Date.UTC(2026, month, month + 1, 23, 30);
      expect(formatUtcDay(at)).toBe(intl.format(at));
    }
  });

  it('French and Arabic axes read in their own months, by the UTC day', () => {
    const late = Date.parse('2026-06-02T23:30:00Z');
    setFormatLanguage('fr');
    expect(formatUtcDay(late)).toBe('2 juin');
    setFormatLanguage('ar');
    expect(formatUtcDay(late)).toMatch(/^2 يونيو$/);
    expect(formatUtcDay(Number.NaN)).toBe(formatUtcDateTime(null));
  });
});
