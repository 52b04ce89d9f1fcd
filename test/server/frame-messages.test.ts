import { describe, expect, it } from 'vitest';
import {
  frameWords,
  keptMessages,
  MESSAGES_KEPT,
} from '../../src/server/services/rendering/frame-words.js';
import { CATALOGUES, LANGUAGES } from '../../src/shared/i18n/index.js';

/*
 * A framed page's messages are looked up once per language (and values), not on every page
 * (i18next's lookup was a third of a framed page's CPU), in a bounded store.
 */
describe('the frame’s messages', () => {
  it('are looked up once per key and values, and no more are kept than the limit', () => {
    const lookups: string[] = [];
    const message = keptMessages((key, values) => {
      const text = values ? `${key}=${values.n}` : key;
      lookups.push(text);
      return `<${text}>`;
    }, 3);
    expect([message('a'), message('a'), message('b'), message('a')]).toEqual([
      '<a>',
      '<a>',
      '<b>',
      '<a>',
    ]);
    expect(lookups).toEqual(['a', 'b']);
    // With values: kept for those values, never another's text.
    expect([message('v', { n: 1 }), message('v', { n: 2 }), message('v', { n: 1 })]).toEqual([
      '<v=1>',
      '<v=2>',
      '<v=1>',
    ]);
    expect(lookups).toEqual(['a', 'b', 'v=1', 'v=2']);
    // Three at most, the least recently used going first: 'b' went for 'v=2' and is asked
    // again, and 'a' for it; 'v=1' and 'v=2' stay.
    message('b');
    message('v', { n: 1 });
    message('v', { n: 2 });
    message('a');
    expect(lookups).toEqual(['a', 'b', 'v=1', 'v=2', 'b', 'a']);
  });

  it('never keep a text longer than the characters kept, nor let it push the others out', () => {
    const lookups: string[] = [];
    const message = keptMessages((key, values) => {
      lookups.push(key);
      return `${key}:${values?.name ?? ''}`;
    });
    // An upstream name of 300,000 characters, as a value: more than the whole store holds.
    const huge = { name: 'x'.repeat(300_000) };
    message('kept');
    expect(message('name', huge)).toHaveLength(300_005);
    expect(message('name', huge)).toHaveLength(300_005);
    message('kept');
    expect(lookups).toEqual(['kept', 'name', 'name']);
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
      // A key that is no message (as from upstream text) is written back, escaped.
      expect(words.t('tiers.<b>')).toBe('tiers.&lt;b&gt;');
      expect(words.t('tiers.<b>')).toBe('tiers.&lt;b&gt;');
    }
    // With values, the message is made for them: never a kept text of other values.
    const words = frameWords('en');
    expect(words.t('country.confidenceOf', { value: 40 })).toContain('40');
    expect(words.t('country.confidenceOf', { value: 47 })).toContain('47');
    expect(words.t('country.confidenceOf', { value: 40 })).toContain('40');
    expect(words.t('country.confidenceOf', { value: '<b>' })).toContain('&lt;b&gt;');
  });
});
