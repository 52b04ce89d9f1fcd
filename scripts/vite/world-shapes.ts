import type { Plugin } from 'vite';
import { buildWorldShapes } from '../../src/client/features/map/utils/build-world-shapes.ts';

const MODULE_ID = 'virtual:world-shapes';
const RESOLVED_ID = `\0${MODULE_ID}`;

/**
 * `virtual:world-shapes`: the maps' country shapes as a JSON string, built from Natural Earth
 * (world-atlas) at build time so the browser neither ships TopoJSON's decoder and the ISO code
 * table nor spends a first load converting. See src/client/features/map/utils/world-shapes.ts.
 */
export function worldShapes(): Plugin {
  return {
    name: 'world-shapes',
    resolveId: (id) => (id === MODULE_ID ? RESOLVED_ID : null),
    load: (id) =>
      id === RESOLVED_ID
        ? `export default ${JSON.stringify(JSON.stringify(buildWorldShapes()))};`
        : null,
  };
}
