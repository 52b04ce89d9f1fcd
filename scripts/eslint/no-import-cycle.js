import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';

/*
 * import-x/no-cycle skips `import type`, so two modules that name each other's types pass it.
 * Such a circle still ties the two files together (neither can move or be read alone), so this
 * rule follows every relative import and re-export, type-only ones included, and reports the
 * import that closes a circle back to the file being linted.
 */

const specifierPattern =
  /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]/g;

/** Relative imports of one file, as absolute paths of the files they name. */
const importsByFile = new Map();

function resolveImport(fromFile, specifier) {
  const base = resolve(dirname(fromFile), specifier).replace(/\.(js|jsx|mjs)$/, '');
  for (const candidate of [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}.js`]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

function importsOf(file) {
  const mtime = statSync(file).mtimeMs;
  const known = importsByFile.get(file);
  if (known && known.mtime === mtime) return known.imports;
  const imports = new Set();
  for (const match of readFileSync(file, 'utf8').matchAll(specifierPattern)) {
    const target = resolveImport(file, match[1]);
    if (target) imports.add(target);
  }
  importsByFile.set(file, { mtime, imports: [...imports] });
  return [...imports];
}

/** The chain of files from `start` back to `goal`, or null when there is none. */
function pathBack(start, goal) {
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift();
    for (const next of importsOf(file)) {
      if (next === goal) {
        const chain = [goal];
        for (let at = file; at !== null; at = previous.get(at)) chain.unshift(at);
        return chain;
      }
      if (!previous.has(next)) {
        previous.set(next, file);
        queue.push(next);
      }
    }
  }
  return null;
}

export const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'forbid import cycles, counting type-only imports' },
    schema: [],
    messages: { cycle: 'import cycle (type-only imports count too): {{chain}}' },
  },
  create(context) {
    const file = context.physicalFilename;
    if (!existsSync(file)) return {};
    const check = (node) => {
      const specifier = node.source?.value;
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const target = resolveImport(file, specifier);
      if (!target || target === file) return;
      const chain = pathBack(target, file);
      if (!chain) return;
      const names = [file, ...chain].map((f) => relative(process.cwd(), f));
      context.report({ node, messageId: 'cycle', data: { chain: names.join(' → ') } });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
    };
  },
};
