import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

/*
 * The architecture's rules live in eslint.config.js (issue 17): layers of the server that never
 * reach up, a type-only circle counted as a circle, a client whose shared parts never import a
 * feature, and tests that cannot leak a module mock into the next file. Each rule is checked
 * here against a planted violation, linted as if it were the named file of the repository, and
 * against the same file without it: a rule switched off, or a zone that no longer matches its
 * folder, fails here rather than letting the next upward import in.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** The rules that report on `code` linted as the repository's file `path`. */
async function rulesBroken(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${path}` });
  return (result?.messages ?? []).map((m) => m.ruleId ?? `fatal: ${m.message}`);
}

const PLANTED: {
  rule: string;
  path: string;
  planted: string;
  allowed: string;
  why: string;
}[] = [
  {
    why: 'store/ never imports services/',
    rule: 'import-x/no-restricted-paths',
    path: 'src/server/store/planted.ts',
    planted: "export { openWatchlists } from '../services/alerts/watchlists.js';",
    allowed: "export { Secret } from '../secret.js';",
  },
  {
    why: 'cache/ never imports services/',
    rule: 'import-x/no-restricted-paths',
    path: 'src/server/cache/planted.ts',
    planted: "export * from '../services/api-problem.js';",
    allowed: "export * from '../upstream/quota.js';",
  },
  {
    why: 'services/ never imports jobs/',
    rule: 'import-x/no-restricted-paths',
    path: 'src/server/services/planted.ts',
    planted: "export * from '../jobs/job-loop.js';",
    allowed: "export * from '../store/connection.js';",
  },
  {
    why: 'plugins/ never imports routes/',
    rule: 'import-x/no-restricted-paths',
    path: 'src/server/plugins/planted.ts',
    planted: "export * from '../routes/batches.js';",
    allowed: "export * from '../services/api-problem.js';",
  },
  {
    why: 'shared/ imports nothing of the server',
    rule: 'no-restricted-imports',
    path: 'src/shared/planted.ts',
    planted: "export { Secret } from '../server/secret.js';",
    allowed: "export * from './durations.js';",
  },
  {
    why: 'shared schemas are zod/mini, so classic zod stays out of the SPA',
    rule: 'no-restricted-imports',
    path: 'src/shared/planted.ts',
    planted: "export { z } from 'zod';",
    allowed: "export { z } from 'zod/mini';",
  },
  {
    why: 'the SPA imports zod/mini only',
    rule: 'no-restricted-imports',
    path: 'src/client/lib/planted.ts',
    planted: "export { z } from 'zod';",
    allowed: "export { z } from 'zod/mini';",
  },
  {
    why: 'the BFF talks to the demo upstream over HTTP only',
    rule: 'no-restricted-imports',
    path: 'src/server/services/planted.ts',
    planted: "export * from '../../demo-upstream/prng.js';",
    allowed: "export * from '../../shared/durations.js';",
  },
  {
    why: 'a type-only circle is a circle (store/batches.ts imports store/series.ts)',
    rule: 'local/no-import-cycle',
    path: 'src/server/store/series.ts',
    planted: "import type { Database } from './batches.js';\nexport type Planted = Database;",
    allowed: "import type { Database } from './connection.js';\nexport type Planted = Database;",
  },
  {
    why: "the client's lib/ never imports a feature",
    rule: 'import-x/no-restricted-paths',
    path: 'src/client/lib/planted.ts',
    planted: "export * from '../features/search/components/search-palette';",
    allowed: "export * from './country-match';",
  },
  {
    why: 'a feature never imports another feature',
    rule: 'import-x/no-restricted-paths',
    path: 'src/client/features/compare/planted.ts',
    planted: "export * from '../search/components/search-palette';",
    allowed: "export * from '../../lib/country-match';",
  },
  {
    why: "a mutation lives in a feature's api/ folder",
    rule: 'no-restricted-imports',
    path: 'src/client/features/compare/components/planted.ts',
    planted: "export { useMutation } from '@tanstack/react-query';",
    allowed: "export { useQuery } from '@tanstack/react-query';",
  },
  {
    why: 'a node test never mocks a module (its worker runs the next file in the same graph)',
    rule: 'no-restricted-properties',
    path: 'test/server/planted.test.ts',
    planted: "import { vi } from 'vitest';\nvi.mock('node:fs');",
    allowed: "import { vi } from 'vitest';\nvi.fn();",
  },
];

// ESLint loads the whole configuration (and its parsers) for the first file: beside two busy
// loops (scripts/loaded-test.mjs) that alone took over the project's 20 s. A limit, not a wait.
describe(
  'the architecture rules of eslint.config.js, each on a planted violation',
  {
    timeout: 120_000,
  },
  () => {
    for (const { why, rule, path, planted, allowed } of PLANTED) {
      it(`${why}: ${rule}`, async () => {
        expect(await rulesBroken(path, `${planted}\n`)).toContain(rule);
        expect(await rulesBroken(path, `${allowed}\n`)).toEqual([]);
      });
    }
  },
);
