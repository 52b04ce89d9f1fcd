// Functions longer than a limit, for the house rule "functions under 80 lines" (issue 35, item
// 9). Counts every function declaration, function expression, arrow function and method in
// src/ (TypeScript's own parser; a route plugin's body and a React component count as one
// function each, their nested functions separately), from its first line to its last.
//
//   node scripts/function-lengths.mjs          # lists those over 80 lines, longest first
//   node scripts/function-lengths.mjs 60       # over another limit
//
// test/shared/function-lengths.test.ts keeps their number at or under the team's ceiling.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const ROOT = join(import.meta.dirname, '..');

/** The functions in `source` (a file's text) longer than `limit` lines. */
export function longFunctionsIn(fileName, source, limit) {
  const kind = fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, kind);
  const found = [];
  const visit = (node) => {
    if (
      ts.isFunctionDeclaration(node) ||
      ts.isFunctionExpression(node) ||
      ts.isArrowFunction(node) ||
      ts.isMethodDeclaration(node)
    ) {
      const first = file.getLineAndCharacterOfPosition(node.getStart()).line;
      const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > limit) found.push({ file: fileName, line: first + 1, lines, name: nameOf(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function nameOf(node) {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent))) {
    return parent.name.getText();
  }
  return '(anonymous)';
}

/** Every function in src/ longer than `limit` lines, longest first. */
export function longFunctions(limit = 80) {
  const found = [];
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
        found.push(...longFunctionsIn(relative(ROOT, path), readFileSync(path, 'utf8'), limit));
      }
    }
  };
  walk(join(ROOT, 'src'));
  return found.sort((a, b) => b.lines - a.lines);
}

if (process.argv[1] === import.meta.filename) {
  const limit = Number(process.argv[2] ?? 80);
  const found = longFunctions(limit);
  for (const f of found) console.log(`${f.lines}\t${f.file}:${f.line}\t${f.name}`);
  console.log(`${found.length} functions over ${limit} lines`);
}
