import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { existsSync, readdirSync } from 'node:fs';
import { noImportCycle } from './scripts/eslint/no-import-cycle.js';

const featuresDir = new URL('./src/client/features/', import.meta.url);
const featureNames = existsSync(featuresDir)
  ? readdirSync(featuresDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
  : [];

// Import direction (house style): shared imports nothing of ours; client and server never import
// each other; the BFF never imports the demo upstream (it talks to it over HTTP), except main.ts,
// which only starts it in-process; client features never import other features.
// The SPA parses every answer with the shared schemas: they are written with zod/mini's
// functions, whose unused parts a bundle leaves out. One import of classic zod would bring all of
// it (about 25 KB gzip, and its schemas' construction) back into the first script.
const CLASSIC_ZOD = {
  name: 'zod',
  message:
    "the SPA's schemas use zod/mini (z.optional(x), x.check(z.maxLength(n))), not classic zod",
};

const restrict = (patterns) => ({
  'no-restricted-imports': ['error', { patterns }],
});

// One server layer (a folder of src/server) never imports the folders named above it.
const layer = (name, above) => ({
  target: `./src/server/${name}`,
  from: above.map((folder) => `./src/server/${folder}`),
  message: `${name}/ sits under ${above.join('/, ')}/: it never imports them (the lower layer is called, it does not call up)`,
});

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', 'test-results/**', 'node_modules/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX, local: { rules: { 'no-import-cycle': noImportCycle } } },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      'import-x/no-cycle': 'error',
      // import-x/no-cycle passes circles made of `import type`; this one counts them too.
      'local/no-import-cycle': 'error',
      'import-x/no-default-export': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/client/**', '**/server/**', '**/demo-upstream/**'],
              message: 'shared imports nothing of client, server or demo-upstream',
            },
          ],
          paths: [CLASSIC_ZOD],
        },
      ],
    },
  },
  {
    files: ['src/server/**'],
    ignores: ['src/server/compose/demo.ts'],
    rules: restrict([
      { group: ['**/client/**'], message: 'the server never imports the client' },
      {
        group: ['**/demo-upstream/**'],
        message: 'the BFF talks to the upstream over HTTP; only compose/demo.ts starts the demo',
      },
    ]),
  },
  {
    // Lower layers never reach up. From the bottom: upstream/ and store/ (the two outside
    // systems), cache/ (answers for services), services/ (what jobs and routes call), then jobs/,
    // routes/ and plugins/, which the composition root and replicas/ put together.
    files: ['src/server/**'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            layer('upstream', [
              'cache',
              'store',
              'services',
              'jobs',
              'routes',
              'plugins',
              'replicas',
            ]),
            layer('store', [
              'upstream',
              'cache',
              'services',
              'jobs',
              'routes',
              'plugins',
              'replicas',
            ]),
            layer('cache', ['store', 'services', 'jobs', 'routes', 'plugins', 'replicas']),
            layer('services', ['jobs', 'routes', 'plugins', 'replicas']),
            layer('jobs', ['routes', 'plugins', 'replicas']),
            layer('routes', ['jobs', 'plugins', 'replicas']),
            layer('plugins', ['routes', 'jobs', 'replicas']),
          ],
        },
      ],
    },
  },
  {
    files: ['src/server/compose/demo.ts'],
    rules: restrict([{ group: ['**/client/**'], message: 'the server never imports the client' }]),
  },
  {
    files: ['src/demo-upstream/**'],
    rules: restrict([
      {
        group: ['**/client/**', '**/server/**'],
        message: 'the demo upstream is a separate program',
      },
    ]),
  },
  {
    files: ['src/client/**'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...restrict([
        {
          group: ['**/server/**', '**/demo-upstream/**'],
          message: 'the client talks to the BFF over HTTP only',
        },
      ]),
    },
  },
  {
    // A change to the BFF goes through a mutation hook of a feature's api/ folder, which owns
    // what the change makes stale; components and routes ask for the change, never the cache.
    files: ['src/client/**'],
    ignores: ['src/client/features/*/api/**', 'src/client/lib/app-link.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/server/**', '**/demo-upstream/**'],
              message: 'the client talks to the BFF over HTTP only',
            },
          ],
          paths: [
            CLASSIC_ZOD,
            {
              name: '@tanstack/react-query',
              importNames: ['useMutation'],
              message:
                "mutations live in a feature's api/ folder as hooks that own their invalidation",
            },
            {
              // A link from a page showing a past batch (?as_of=) must not drop into today's data.
              name: 'react-router',
              importNames: ['Link', 'useNavigate'],
              message:
                "use lib/app-link's Link and useAppNavigate: they keep the batch being viewed",
            },
          ],
        },
      ],
    },
  },
  {
    // Shared UI primitives and the API client are below every feature and route module.
    files: ['src/client/lib/**', 'src/client/components/**'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: ['lib', 'components'].map((layer) => ({
            target: `./src/client/${layer}`,
            from: ['./src/client/features', './src/client/app'],
            message: `${layer}/ is shared by every feature: it never imports features/ or app/`,
          })),
        },
      ],
    },
  },
  {
    // Each feature may import only itself (plus components/, lib/, shared/); zones are generated
    // from the folders that exist, so a new feature is covered without editing this file.
    files: ['src/client/features/**'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...featureNames.map((name) => ({
              target: `./src/client/features/${name}`,
              from: './src/client/features',
              except: [`./${name}`],
              message: 'features never import other features; compose them in app/',
            })),
            {
              target: './src/client/features',
              from: './src/client/app',
              message: 'features never import app/',
            },
          ],
        },
      ],
    },
  },
  {
    // The node project and the browser files run in one module graph per worker
    // (vitest.config.ts and vitest.e2e.config.ts, `isolate: false`): a module mock or a stubbed
    // global would outlive its file and change the next file's. A test passes what it varies to
    // the code it builds instead.
    files: ['test/server/**', 'test/shared/**', 'test/demo-upstream/**', 'test/e2e/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...['mock', 'doMock', 'stubGlobal', 'stubEnv'].map((property) => ({
          object: 'vi',
          property,
          message: `vi.${property} would leak into the next test file (isolate: false in vitest.config.ts and vitest.e2e.config.ts)`,
        })),
      ],
    },
  },
);
