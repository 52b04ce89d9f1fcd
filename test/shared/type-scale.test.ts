import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * The screen's type scale (src/client/styles/base.css): every size is one of six custom
 * properties and every weight 400 or 600. A size written out anywhere else is a seventh size on
 * screen and one more font lookup in a page's first layout. print.css, for paper, has its own.
 */
const STYLES = join(import.meta.dirname, '../../src/client/styles');
const SCALE = ['xs', 'sm', 'md', 'lg', 'xl', 'display'].map((step) => `var(--text-${step})`);

function declarations(property: string): string[] {
  return readdirSync(STYLES)
    .filter((file) => file.endsWith('.css') && file !== 'print.css')
    .flatMap((file) =>
      [
        ...readFileSync(join(STYLES, file), 'utf8').matchAll(
          new RegExp(`${property}:\\s*([^;]+);`, 'g'),
        ),
      ].map((match) => `${file}: ${match[1]!.trim()}`),
    );
}

describe('the type scale', () => {
  it('sizes text only with the scale (the root sets 1rem)', () => {
    const sizes = declarations('font-size');
    expect(sizes.length).toBeGreaterThan(50);
    const outside = sizes.filter(
      (found) =>
        !SCALE.some((step) => found.endsWith(`: ${step}`)) &&
        found !== 'base.css: 15px' &&
        found !== 'base.css: max(16px, 1em)' &&
        !found.endsWith(': inherit'),
    );
    expect(outside).toEqual([]);
  });

  it('sets two weights, 400 and 600', () => {
    const weights = declarations('font-weight');
    expect(weights.length).toBeGreaterThan(30);
    expect(weights.filter((found) => !/: (400|600)$/.test(found))).toEqual([]);
  });
});
