import { defineConfig } from 'drizzle-kit';

// Generates the store's SQL migrations from its TypeScript schema: `npm run db:generate`.
export default defineConfig({
  dialect: 'postgresql',
  schema: [
    './src/server/store/schema.ts',
    './src/server/store/alerts-schema.ts',
    './src/server/store/replicas-schema.ts',
    './src/server/store/batch-chain-schema.ts',
    './src/server/store/identity-schema.ts',
    './src/server/store/sites-schema.ts',
    './src/server/store/audit-schema.ts',
    './src/server/store/triage-schema.ts',
    './src/server/store/person-settings-schema.ts',
    './src/server/store/month-risks-schema.ts',
    './src/server/store/method-notes-schema.ts',
    './src/server/store/team-index-schema.ts',
    './src/server/store/reach-schema.ts',
  ],
  out: './src/server/store/migrations',
});
