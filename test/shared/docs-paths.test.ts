import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * The README is a map (issue 35, item 7): every repository path it and the documents name exists,
 * every link lands on a file (and a heading, when it names one), every document in docs/ is
 * linked from it, and it stays short enough to read. Plain node fs: nothing is built or started.
 */

const ROOT = process.cwd();
const README_MAX_LINES = 300;

const DOCUMENTS = [
  'README.md',
  'src/server/README.md',
  'src/demo-upstream/README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** The text outside fenced code blocks (the folder trees there are relative to their folder). */
function prose(text: string): string {
  return text.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');
}

/**
 * Repository paths named in the text, in backticks, links or words: `src/…`, `test/…`,
 * `scripts/…`, `docs/…`, `deploy/…`, with a line suffix (`file.ts:113-161`) and trailing
 * punctuation dropped. Placeholders stop the path where they start (`features/<name>/`), and
 * globs (`test/**`) are not paths.
 */
function namedPaths(text: string): string[] {
  const found = new Set<string>();
  for (const match of prose(text).matchAll(
    /(?<![\w./@-])(?:src|test|scripts|docs|deploy)\/[\w./@*{}-]*/g,
  )) {
    const path = match[0].replace(/[.]+$/, '');
    if (/[*{}]/.test(path)) continue;
    found.add(path);
  }
  return [...found];
}

/**
 * Paths a document in a folder names relative to that folder, in backticks (`routes/country.ts`
 * in src/server/README.md): those whose first folder exists there.
 */
function relativePaths(text: string, folder: string): string[] {
  const found = new Set<string>();
  for (const match of prose(text).matchAll(/`([\w-]+)\/([\w./-]*)`/g)) {
    const [, first = '', rest = ''] = match;
    if (existsSync(join(folder, first)) && !/^(src|test|scripts|docs|deploy)$/.test(first)) {
      found.add(`${first}/${rest}`.replace(/[.]+$/, ''));
    }
  }
  return [...found];
}

interface Link {
  target: string;
  anchor: string | null;
}

/** Markdown links to files of the repository (not web addresses): target and anchor. */
function localLinks(text: string): Link[] {
  const links: Link[] = [];
  for (const match of prose(text).matchAll(/\]\(([^)\s]+)\)/g)) {
    const href = match[1] ?? '';
    if (/^[a-z]+:/i.test(href)) continue;
    const [target = '', anchor = null] = href.split('#');
    links.push({ target, anchor });
  }
  return links;
}

/** GitHub's anchors for a document's headings ("## (1) Cached `node:http`" → "1-cached-nodehttp"). */
function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of prose(text).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const slug = (match[1] ?? '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

describe('the README and docs name only what exists', () => {
  it(`README.md is a map: at most ${README_MAX_LINES} lines`, () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it.each(DOCUMENTS)('every repository path %s names exists', (document) => {
    const text = read(document);
    const named = namedPaths(text);
    const folder = join(ROOT, dirname(document));
    const missing = [
      ...named.filter((path) => !existsSync(join(ROOT, path))),
      ...relativePaths(text, folder)
        .filter((path) => !existsSync(join(folder, path)))
        .map((path) => `${dirname(document)}/${path}`),
    ];
    expect(missing, `${document} names paths that do not exist`).toEqual([]);
    if (document === 'README.md') expect(named.length).toBeGreaterThan(20);
  });

  it.each(DOCUMENTS)('every link in %s lands on a file and a heading', (document) => {
    const text = read(document);
    const broken = localLinks(text).filter(({ target, anchor }) => {
      const file = target === '' ? join(ROOT, document) : resolve(ROOT, dirname(document), target);
      if (!existsSync(file)) return true;
      if (anchor === null || !file.endsWith('.md')) return false;
      return !headingAnchors(readFileSync(file, 'utf8')).has(anchor);
    });
    expect(broken.map(({ target, anchor }) => `${target}#${anchor ?? ''}`)).toEqual([]);
  });

  it('the README links every document in docs/', () => {
    const linked = new Set(
      localLinks(read('README.md')).map(({ target }) => relative(ROOT, resolve(ROOT, target))),
    );
    const unlinked = DOCUMENTS.filter((d) => d.startsWith('docs/') && !linked.has(d));
    expect(unlinked).toEqual([]);
  });
});

describe('how paths, links and anchors are read', () => {
  it('finds paths in backticks, links and words, and skips placeholders, globs and code blocks', () => {
    const text = [
      'See `src/server/main.ts`, [the API](docs/api.md#limits) and test/e2e/print.test.ts.',
      '`--mutate src/server/cache/resource-cache.ts:113-161` and `src/client/features/<name>/`',
      "'test/client/**/*.test.{ts,tsx}' DATA_DIR/history test-results/ https://x.org/src/a.ts",
      '```',
      'src/not-checked.ts',
      '```',
    ].join('\n');
    expect(namedPaths(text).sort()).toEqual([
      'docs/api.md',
      'src/client/features/',
      'src/server/cache/resource-cache.ts',
      'src/server/main.ts',
      'test/e2e/print.test.ts',
    ]);
  });

  it("reads a folder's README relative to that folder", () => {
    const text = '`routes/country.ts` and `store/migrations/`, `nowhere/x.ts`, `src/a.ts`';
    expect(relativePaths(text, join(ROOT, 'src/server'))).toEqual([
      'routes/country.ts',
      'store/migrations/',
    ]);
  });

  it('reads links and anchors as GitHub writes them', () => {
    expect(localLinks('[a](docs/x.md#y) [b](https://e.org) [c](#z)')).toEqual([
      { target: 'docs/x.md', anchor: 'y' },
      { target: '', anchor: 'z' },
    ]);
    const anchors = headingAnchors(
      '# A\n## (1) Cached answers beside a bare `node:http` server\n## A\n',
    );
    expect([...anchors]).toEqual(['a', '1-cached-answers-beside-a-bare-nodehttp-server', 'a-1']);
  });
});
