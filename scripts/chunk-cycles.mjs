// Static import cycles between the SPA's built chunks (used by check-budgets.mjs). A cycle is
// legal JavaScript, but the chunk on one side then runs before the other has: on 2 Dec 2026 a
// module shared by the server's first frame and the map fell outside the map's chunk group, the
// bundler put it in a second world-map chunk importing the first, which imported it back, and
// the map read its first view before that chunk had run: no view, a blank map, and no error.
// Plain Node ESM, no dependencies.

/** `import … from "./x.js"` and `import "./x.js"`, not `import("./x.js")` (loaded later). */
export const STATIC_IMPORT =
  /\bimport\s*(?:[\w$*{}\s,]+?\s*from\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g;

/**
 * Each cycle among `chunks` (file name → its code, all in one folder), as the file names along
 * it with the first repeated at the end; none when the static imports form no loop.
 */
export function chunkCycles(chunks) {
  const imports = new Map();
  for (const [name, code] of chunks) {
    const targets = [...code.matchAll(STATIC_IMPORT)].map(([, spec]) => spec.replace(/^\.\//, ''));
    imports.set(
      name,
      [...new Set(targets)].filter((target) => chunks.has(target)),
    );
  }
  const cycles = [];
  const done = new Set();
  const path = [];
  const visit = (name) => {
    path.push(name);
    for (const target of imports.get(name)) {
      const at = path.indexOf(target);
      if (at >= 0) cycles.push([...path.slice(at), target]);
      else if (!done.has(target)) visit(target);
    }
    path.pop();
    done.add(name);
  };
  for (const name of chunks.keys()) if (!done.has(name)) visit(name);
  return cycles;
}
