import { describe, expect, it } from 'vitest';
import {
  frameWords,
  keptMessages,
  MESSAGES_KEPT,
} from '../../src/server/services/rendering/frame-words.js';
import { CATALOGUES, LANGUAGES } from '../../src/shared/i18n/index.js';

/*
 * A framed page's messages without values are looked up once per language, not on every page
 * (i18next's lookup was a third of a framed page's CPU), in a bounded store.
 */
describe('the frame’s messages', () => {
  it('are looked up once per key, and no more are kept than the limit', () => {
    const lookups: string[] = [];
    const message = keptMessages((key) => {
      lookups.push(key);
      return `<${key}>`;
    }, 3);
    expect([message('a'), message('a'), message('b'), message('a')]).toEqual([
      '<a>',
      '<a>',
      '<b>',
      '<a>',
    ]);
    expect(lookups).toEqual(['a', 'b']);
    // Full at three: a fourth key is written each time it is asked, the kept ones still kept.
    for (const key of ['c', 'd', 'd', 'a', 'c']) message(key);
    expect(lookups).toEqual(['a', 'b', 'c', 'd', 'd']);
  });

  it('keep every key of the largest catalogue', () => {
    const count = (tree: object): number =>
      Object.values(tree).reduce<number>(
        (n, value) => n + (typeof value === 'object' && value !== null ? count(value) : 1),
        0,
      );
    const largest = Math.max(...LANGUAGES.map((language) => count(CATALOGUES[language])));
    expect(largest).toBeLessThan(MESSAGES_KEPT);
  });

  it('read the same, escaped, on every page and in each language', () => {
    for (const language of LANGUAGES) {
      const words = frameWords(language);
      const first = words.t('shell.noScriptPage');
      expect(first).not.toBe('shell.noScriptPage');
      expect(words.t('shell.noScriptPage')).toBe(first);
      expect(frameWords(language).t('shell.noScriptPage')).toBe(first);
      // A key that is no message (as from upstream text) is written back, escaped, each time.
      expect(words.t('tiers.<b>')).toBe('tiers.&lt;b&gt;');
      expect(words.t('tiers.<b>')).toBe('tiers.&lt;b&gt;');
    }
    // With values, the message is made for them: never a kept text of other values.
    const words = frameWords('en');
    expect(words.t('country.confidenceOf', { value: 40 })).toContain('40');
    expect(words.t('country.confidenceOf', { value: 47 })).toContain('47');
  });
});
