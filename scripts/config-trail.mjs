// Issue 35, item 2: how far the settings travel. Starting in `buildApp` (src/server/compose/app.ts)
// with its `config` parameter, follows every call that is handed `config` or a part of it
// (`config.history`, `config.data.freshness`, a variable holding one) into the function called,
// and there follows the parameter that received it, depth first. Only settings objects are
// followed (the whole or a slice such as `config.data.freshness`, or an object literal holding
// one): a single value read from them (a number, a string, a list, a `Secret`: one string the
// logs cannot print) handed to a part is that part's input, not the settings, and so is an
// object literal of such values (`new Outbox({ maxRows, intervalMs })`). A class whose
// constructor keeps settings in a field (`private readonly oidc`, `this.#options = options`) has
// its methods followed too, with those fields. Going back up to a caller is not counted: the root
// is read top to bottom.
//
// What a part is (docs/architecture.md, "Settings, one slice per part"): the root is
// src/server/compose/* (app.ts's buildApp and the files it composes with); a part is a folder
// under src/server (store/, replicas/, upstream/, cache/, jobs/, plugins/, routes/, work/, ...),
// or under src/server/services one folder per service (services/history/, services/alerts/,
// ...), or a file directly in src/server or src/server/services that is its own part
// (client-identity.ts, metrics.ts, store-question-limit.ts, ...).
//
// The rule it pins: following `config` enters at most one file per part (the part's entry,
// which takes its slice and hands plain values to the files below it), and never enters a file
// a second time (a "return": two parts sharing a helper that reads settings, or a part's helper
// calling back into it). It prints the trail, the files entered per part, the total and the
// returns, and exits 1 when the rule is broken. test/shared/config-trail.test.ts runs it too.
//
//   node scripts/config-trail.mjs            the figures, the parts and the trail
//   node scripts/config-trail.mjs --json     the same as JSON
//
// TypeScript's compiler API (typescript 5.x, the one typescript-eslint uses) over tsconfig.json.

import { relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
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
  // A field the constructor filled from the settings (`this.oidc`, `this.#options`).
  if (ts.isPropertyAccessExpression(node) && node.expression.kind === ts.SyntaxKind.ThisKeyword) {
    if (names.has(`this.${node.name.text}`)) return true;
  }
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
  // An object literal built here hands settings only if one of its members does: `{ maxRows }`
  // hands a number, `{ history }` or `{ ...config.history }` hands the settings.
  if (ts.isObjectLiteralExpression(node)) {
    return node.properties.some((member) => {
      if (ts.isSpreadAssignment(member)) return handsSettings(member.expression, names);
      if (ts.isShorthandPropertyAssignment(member)) return handsSettings(member.name, names);
      if (ts.isPropertyAssignment(member)) return handsSettings(member.initializer, names);
      return false;
    });
  }
  const type = checker.getNonNullableType(checker.getTypeAtLocation(node));
  const parts = type.isUnion() ? type.types : [type];
  return parts.some(
    (part) =>
      !(part.flags & LEAF) &&
      !checker.isArrayType(part) &&
      part.getCallSignatures().length === 0 &&
      part.getSymbol()?.getName() !== 'Secret',
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
      const received = callee ? receivingNames(callee, node, tracked) : new Set();
      if (received.size > 0 && !seenCalls.has(key)) {
        seenCalls.add(key);
        walk(callee, received, file);
      } else if (received.size > 0) {
        // A function walked before, handed settings again (two parts sharing a helper that
        // reads them): not walked twice, but the walk did go back into its file.
        const again = relative(root, callee.getSourceFile().fileName);
        if (again !== file) {
          returns++;
          trail.push(again);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(fn.body);
  if (ts.isConstructorDeclaration(fn)) walkMethods(fn, tracked, file);
}

/**
 * A class keeps settings in fields (a parameter property, `this.#options = options`): its
 * methods are followed too, with those fields tracked, as part of the same file.
 */
function walkMethods(constructor, tracked, file) {
  const fields = new Set();
  for (const parameter of constructor.parameters) {
    const isProperty = ts.getModifiers(parameter)?.length > 0;
    if (isProperty && ts.isIdentifier(parameter.name) && tracked.has(parameter.name.text)) {
      fields.add(`this.${parameter.name.text}`);
    }
  }
  const visit = (node) => {
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isPropertyAccessExpression(node.left) &&
      node.left.expression.kind === ts.SyntaxKind.ThisKeyword &&
      handsSettings(node.right, tracked)
    ) {
      fields.add(`this.${node.left.name.text}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(constructor.body);
  if (fields.size === 0) return;
  for (const member of constructor.parent.members) {
    const isMethod =
      ts.isMethodDeclaration(member) ||
      ts.isGetAccessorDeclaration(member) ||
      ts.isSetAccessorDeclaration(member) ||
      (ts.isPropertyDeclaration(member) && member.initializer && 'body' in member.initializer);
    const fn = ts.isPropertyDeclaration(member) ? member.initializer : member;
    if (isMethod && fn.body) walk(fn, fields, file);
  }
}

const source = program.getSourceFile(appFile);
let buildApp = null;
source.forEachChild((node) => {
  if (ts.isFunctionDeclaration(node) && node.name?.text === 'buildApp') buildApp = node;
});
if (!buildApp) throw new Error('buildApp not found in src/server/compose/app.ts');
walk(buildApp, new Set(['config']));

/**
 * The part a file belongs to (see the header): null for the root (compose/); a folder under
 * src/server, a service folder under services/, or the file itself when it stands alone.
 */
export function partOf(file) {
  const steps = file.replace(/^src\/server\//, '').split('/');
  if (steps[0] === 'compose') return null;
  if (steps[0] === 'services' && steps.length > 2) return `services/${steps[1]}`;
  if (steps.length === 1 || steps[0] === 'services') return steps.join('/');
  return steps[0];
}

/** The files entered per part, in the order first entered. */
function filesPerPart(files) {
  const parts = new Map();
  for (const file of files) {
    const part = partOf(file);
    if (part === null) continue;
    if (!parts.has(part)) parts.set(part, []);
    if (!parts.get(part).includes(file)) parts.get(part).push(file);
  }
  return Object.fromEntries(parts);
}

/** The walk's figures: the trail, distinct files, returns, files per part and the parts over one. */
export const configTrail = (() => {
  const parts = filesPerPart(trail);
  const crowded = Object.keys(parts).filter((part) => parts[part].length > 1);
  return { files: new Set(trail).size, returns, parts, crowded, trail };
})();

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { files, parts, crowded, trail: order } = configTrail;
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(configTrail, null, 2));
  } else {
    console.log(`following config from buildApp: ${files} files entered, ${returns} returns`);
    for (const [part, entries] of Object.entries(parts)) {
      console.log(`  ${part}: ${entries.length} (${entries.join(', ')})`);
    }
    console.log(order.join(' → '));
  }
  if (crowded.length > 0 || returns > 0) {
    console.error(
      `config-trail: ${returns} returns; parts entered by more than one file: ` +
        (crowded.join(', ') || 'none'),
    );
    process.exitCode = 1;
  }
}
