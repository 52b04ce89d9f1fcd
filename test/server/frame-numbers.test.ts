import { afterAll, describe, expect, it } from 'vitest';
import { formatScore, formatSigned, setFormatLanguage } from '../../src/client/lib/format';
import { frameWords } from '../../src/server/services/rendering/frame-words.js';

/*
 * Issue 32, point 1: the first frame's figures are the SPA's to the character, so nothing reads
 * differently when it takes over. The frame wrote English with toFixed: 1.005 read "1.00" where
 * the screens write "1.01", and 1234.5 "1234.50" where they write "1,234.50".
 */
const VALUES = [1.005, 0.125, -2.5, 2.5, 999.995, 1234.5, -0.001, 0, 61.125, 86.1, 12.345, -0.004];

describe('the frame writes numbers as the screens do', () => {
  afterAll(() => setFormatLanguage('en'));

  for (const language of ['en', 'fr', 'es', 'ar'] as const) {
    it(`in ${language}: scores, counts and signed changes`, () => {
      setFormatLanguage(language);
      const words = frameWords(language);
      for (const value of VALUES) {
        expect(words.score(value), `${value}`).toBe(formatScore(value));
        expect(words.score(value, 0), `${value} as a count`).toBe(formatScore(value, 0));
        expect(words.signed(value), `${value} signed`).toBe(formatSigned(value));
      }
    });
  }
});
