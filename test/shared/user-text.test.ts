import { describe, expect, it } from 'vitest';
import { watchlistInputSchema } from '../../src/shared/alerts-api.js';
import { userTextProblem } from '../../src/shared/user-text.js';

describe('user text (names)', () => {
  it.each([
    ['a C0 control', 'Sa\u0007hel', 'U+0007'],
    ['a newline', 'Sahel\nBcc: x@example.com', 'U+000A'],
    ['DEL', 'Sahel\u007f', 'U+007F'],
    ['a C1 control', 'Sahel\u0085', 'U+0085'],
    ['a right-to-left override', 'Sahel \u202Egnp.exe', 'U+202E'],
    ['a left-to-right embedding', '\u202ASahel', 'U+202A'],
    ['a bidi isolate', 'Sa\u2066hel', 'U+2066'],
    ['a pop directional isolate', 'Sahel\u2069x', 'U+2069'],
    ['a zero-width space', 'Sa\u200Bhel', 'U+200B'],
    ['a zero-width joiner', 'Sa\u200Dhel', 'U+200D'],
    ['a word joiner', 'Sa\u2060hel', 'U+2060'],
    ['a byte-order mark inside', 'Sa\uFEFFhel', 'U+FEFF'],
    ['a soft hyphen', 'Sa\u00ADhel', 'U+00AD'],
    ['a line separator', 'Sa\u2028hel', 'U+2028'],
    ['a Hangul filler', 'Sa\u3164hel', 'U+3164'],
    ['a lone surrogate', 'Sa\uD800hel', 'U+D800'],
    ['a private-use character', 'Sa\uE000hel', 'U+E000'],
  ])('refuses %s, naming the field and the character', (_what, name, code) => {
    expect(userTextProblem('name', name)).toMatch(
      new RegExp(`^name must not contain .*${code.replace('+', '\\+')}`),
    );
    const parsed = watchlistInputSchema.safeParse({ name, countries: ['MLI'] });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['name']);
    expect(parsed.error?.issues[0]?.message).toContain(code);
  });

  it.each([
    'Sahel',
    'Côte d’Ivoire & neighbours',
    'Ближний Восток',
    'الساحل',
    '東アジア',
    'Gulf states 🛢️',
    'Horn of Africa (east)',
  ])('stores %s as typed', (name) => {
    expect(userTextProblem('name', name)).toBeNull();
    expect(watchlistInputSchema.parse({ name, countries: ['MLI'] }).name).toBe(name);
  });

  it('says where the character is', () => {
    expect(userTextProblem('name', 'ab\u202Ec')).toMatch(/U\+202E at position 3/);
  });
});
