import { describe, expect, it } from 'vitest';
import { CATALOGUES } from '../../src/shared/i18n/index.js';
import { OUTPUTS } from '../../src/shared/i18n/outputs/index.js';

/*
 * Issue 34: Arabic has six plural forms (CLDR: zero, one, two, few, many, other), and i18next
 * looks for the one a count needs in Arabic, then in English: a missing "_zero" says "0 created"
 * in English in an Arabic sentence. Every plural of the sites', map's and admin's messages and
 * of what is sent and exported has all six.
 */
const FORMS = ['zero', 'one', 'two', 'few', 'many', 'other'];

function missingForms(
  english: Readonly<Record<string, string>>,
  arabic: Readonly<Record<string, string>>,
): string[] {
  const plurals = new Set(
    Object.keys(english)
      .filter((key) => /_(one|other)$/.test(key))
      .map((key) => key.replace(/_(one|other)$/, '')),
  );
  return [...plurals].flatMap((base) =>
    FORMS.filter((form) => !(`${base}_${form}` in arabic)).map((form) => `${base}_${form}`),
  );
}

describe('Arabic plurals (issue 34)', () => {
  it.each(['sites', 'map', 'admin'] as const)('the %s messages have every form', (area) => {
    expect(missingForms(CATALOGUES.en[area], CATALOGUES.ar[area])).toEqual([]);
  });

  it.each(Object.keys(OUTPUTS.en))('what is sent and exported: %s', (section) => {
    const area = section as keyof typeof OUTPUTS.en;
    expect(missingForms(OUTPUTS.en[area], OUTPUTS.ar[area])).toEqual([]);
  });
});
