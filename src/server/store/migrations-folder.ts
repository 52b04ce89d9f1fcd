import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/**
 * The committed SQL migrations live beside the schema in src/server/store/migrations. Run from
 * source (tsx, vitest) that is next to this file; run compiled (dist/node/server/store, which tsc
 * fills with .js only) it is the same folder in the source tree, four levels up.
 */
export function migrationsFolder(): string {
  const candidates = [
    resolve(here, 'migrations'),
    resolve(here, '../../../../src/server/store/migrations'),
  ];
  const found = candidates.find((dir) => existsSync(resolve(dir, 'meta/_journal.json')));
  if (!found) {
    throw new Error(`The store's migrations are missing (looked in ${candidates.join(', ')})`);
  }
  return found;
}
