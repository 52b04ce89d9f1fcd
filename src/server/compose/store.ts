import type { AppConfig } from '../config.js';
import { HistoryStore } from '../store/history-store.js';

/**
 * The store, opened in this one place from the settings: PGlite under DATA_DIR, or PostgreSQL
 * with DATABASE_URL (its pool sized for this replica). Null when the settings record nothing.
 */
export async function openStore(
  config: Pick<AppConfig, 'server' | 'history' | 'replicas'>,
): Promise<HistoryStore | null> {
  if (!config.history) return null;
  return HistoryStore.open({
    dataDir: config.server.dataDir,
    databaseUrl: config.history.databaseUrl,
    retentionDays: config.history.retentionDays,
    poolMax: config.replicas?.poolMax,
  });
}
