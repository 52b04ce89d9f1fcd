// Issue 35, item 2: how far the settings travel. Starting in `buildApp` (src/server/compose/app.ts)
// with its `config` parameter, follows every call that is handed `config` or a part of it
// (`config.history`, `config.data.freshness`, a variable holding one) into the function called,
// and there follows the parameter that received it, depth first. Only settings objects are
// followed (the whole or a slice such as `config.data.freshness`): a single value read from them
// (a number, a string, a list) handed to a part is that part's input, not the settings. Prints the files in the order
// entered, how many distinct files, and how many times a call took the walk into a file it had
// entered before (two parts sharing a helper that reads settings, or a part's helper calling
// back into it). Going back up to a caller is not counted: the root is read top to bottom.
//
//   node scripts/config-trail.mjs            the figures and the trail
//   node scripts/config-trail.mjs --json     the same as JSON
//
// TypeScript's compiler API (typescript 5.x, the one typescript-eslint uses) over tsconfig.json.

import { relative, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '..');
const configPath = ts.findConfigFile(root, ts.sys.fileExists, 'tsconfig.json');
const parsed = ts.parseJsonConfigFileContent(
  ts.readConfigFile(configPath, ts.sys.readFile).config,
  ts.sys,
  root,
);
const options = parsed.options;
const appFile = resolve(root, 'src/server/compose/app.ts');
const program = ts.createProgram({
  rootNames: [appFile],
  options: { ...options, noEmit: true, allowJs: false, skipLibCheck: true },
});
const checker = program.getTypeChecker();

/**
 * Is `node` the settings, or a part of them: a tracked name, a property of one
 * (`config.data.freshness`), either side of `??`/`||` or a conditional, or an object literal
 * holding one (`{ ...config.history }`, `{ config }`). A call's result is not (a logger made
 * from `config.server.logLevel` is a logger).
 */
function carries(node, names) {
  if (ts.isIdentifier(node)) return names.has(node.text);
  if (ts.isShorthandPropertyAssignment(node)) return names.has(node.name.text);
  if (
    ts.isPropertyAccessExpression(node) ||
    ts.isElementAccessExpression(node) ||
    ts.isParenthesizedExpression(node) ||
    ts.isNonNullExpression(node) ||
    ts.isAsExpression(node) ||
    ts.isSpreadAssignment(node) ||
    ts.isSpreadElement(node)
  ) {
    return carries(node.expression, names);
  }
  if (ts.isPropertyAssignment(node)) return carries(node.initializer, names);
  if (ts.isBinaryExpression(node)) {
    const op = node.operatorToken.kind;
    if (op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.BarBarToken) {
      return carries(node.left, names) || carries(node.right, names);
    }
    return false;
  }
  if (ts.isConditionalExpression(node)) {
    return carries(node.whenTrue, names) || carries(node.whenFalse, names);
  }
  if (ts.isObjectLiteralExpression(node)) return node.properties.some((p) => carries(p, names));
  return false;
}

const LEAF =
  ts.TypeFlags.StringLike |
  ts.TypeFlags.NumberLike |
  ts.TypeFlags.BooleanLike |
  ts.TypeFlags.BigIntLike |
  ts.TypeFlags.EnumLike |
  ts.TypeFlags.Null |
  ts.TypeFlags.Undefined |
  ts.TypeFlags.Void;

/**
 * Does `node` hand over settings (the whole `AppConfig` or a slice of it, an object) rather than
 * one value read from them (a number, a string, a list of hours)? A part that is given
 * `config.history.maxWatchlists` has been given a limit, not the settings: the walk stops there.
 */
function handsSettings(node, names) {
  if (!carries(node, names)) return false;
  const type = checker.getNonNullableType(checker.getTypeAtLocation(node));
  const parts = type.isUnion() ? type.types : [type];
  return parts.some(
    (part) =>
      !(part.flags & LEAF) && !checker.isArrayType(part) && part.getCallSignatures().length === 0,
  );
}

/** The declaration a call goes to (through imports and aliases), if it is ours. */
function calleeOf(call) {
  let symbol = checker.getSymbolAtLocation(
    ts.isPropertyAccessExpression(call.expression) ? call.expression.name : call.expression,
  );
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  let declaration = symbol?.declarations?.[0];
  if (!declaration) return null;
  // `new X(…)`: the class's constructor.
  if (ts.isClassDeclaration(declaration)) {
    declaration = declaration.members.find((member) => ts.isConstructorDeclaration(member));
    if (!declaration) return null;
  }
  const file = declaration.getSourceFile().fileName;
  if (!file.startsWith(resolve(root, 'src/server')) || file.endsWith('.d.ts')) return null;
  const fn = ts.isVariableDeclaration(declaration) ? declaration.initializer : declaration;
  if (!fn || !('parameters' in fn) || !fn.body) return null;
  return fn;
}

/** Parameter names of `fn` that receive tracked arguments of `call` (destructured: each name). */
function receivingNames(fn, call, names) {
  const received = new Set();
  (call.arguments ?? []).forEach((argument, i) => {
    const parameter = fn.parameters[i];
    if (!parameter || !handsSettings(argument, names)) return;
    const add = (binding) => {
      if (ts.isIdentifier(binding)) received.add(binding.text);
      else
        for (const element of binding.elements)
          if (!ts.isOmittedExpression(element)) add(element.name);
    };
    add(parameter.name);
  });
  return received;
}

/** Names in `body` bound from tracked expressions (`const access = config.access`). */
function localNames(body, names) {
  const all = new Set(names);
  const visit = (node) => {
    if (
      ts.isVariableDeclaration(node) &&
      node.initializer &&
      handsSettings(node.initializer, all)
    ) {
      const add = (binding) => {
        if (ts.isIdentifier(binding)) all.add(binding.text);
        else
          for (const element of binding.elements)
            if (!ts.isOmittedExpression(element)) add(element.name);
      };
      add(node.name);
    }
    ts.forEachChild(node, visit);
  };
  visit(body);
  return all;
}

/** Files in the order a call enters them (going back up to the caller is not an entry). */
const trail = [];
/** Entries by a call into a file already entered before (its caller excepted). */
let returns = 0;
const entered = new Set();
const seenCalls = new Set();
function walk(fn, names, caller = null) {
  const file = relative(root, fn.getSourceFile().fileName);
  if (file !== caller) {
    if (entered.has(file)) returns++;
    entered.add(file);
    trail.push(file);
  }
  const tracked = localNames(fn.body, names);
  const visit = (node) => {
    const isCall = ts.isCallExpression(node) || ts.isNewExpression(node);
    if (isCall && (node.arguments ?? []).some((a) => handsSettings(a, tracked))) {
      const callee = calleeOf(node);
      const key = callee && `${callee.getSourceFile().fileName}:${callee.pos}`;
      if (callee && !seenCalls.has(key)) {
        seenCalls.add(key);
        const received = receivingNames(callee, node, tracked);
        if (received.size > 0) walk(callee, received, file);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(fn.body);
}

const source = program.getSourceFile(appFile);
let buildApp = null;
source.forEachChild((node) => {
  if (ts.isFunctionDeclaration(node) && node.name?.text === 'buildApp') buildApp = node;
});
if (!buildApp) throw new Error('buildApp not found in src/server/compose/app.ts');
walk(buildApp, new Set(['config']));

const files = new Set(trail).size;
if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ files, returns, trail }, null, 2));
} else {
  console.log(`following config from buildApp: ${files} files entered, ${returns} returns`);
  console.log(trail.join(' → '));
}
