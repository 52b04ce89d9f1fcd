import shapesJson from 'virtual:world-shapes';
import type { WorldShapes } from './build-world-shapes';

export type { CountryShape, ShapeProperties, WorldShapes } from './build-world-shapes';

/**
 * The country shapes, built at build time (build-world-shapes.ts, through
 * scripts/vite/world-shapes.ts). Imported lazily, this module is its own chunk
 * (`world-shapes-*.js`, held to 60 KB gzip by scripts/check-budgets.mjs), off the first paint's
 * critical path. The shapes come as JSON text: V8 parses JSON.parse's argument far faster than
 * the same data written as an object literal (about 15 ms less per first load, measured).
 */
export function loadWorldShapes(): WorldShapes {
  return JSON.parse(shapesJson) as WorldShapes;
}
