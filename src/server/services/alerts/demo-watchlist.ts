import { selectBatchAtOrBefore, selectCountryRows } from '../../store/batches.js';
import type { Database } from '../../store/connection.js';
import { insertDemoWatchlist, selectDemoWatchlist } from '../../store/watchlists.js';

const SAMPLE_SIZE = 6;

/**
 * The demo's sample list, so a new user sees alerts on first start: the six highest-risk
 * countries of the newest seeded batch, with the document's rule (|Δ active| ≥ 10) and tier
 * changes either way. Made when the store has none (a demo started after the user deleted it
 * shows it again, which is what a demo is for); a unique marker keeps it to one.
 */
export async function ensureDemoWatchlist(db: Database): Promise<number | null> {
  if (await selectDemoWatchlist(db)) return null;
  const latest = await selectBatchAtOrBefore(db, null);
  if (!latest) return null;
  const rows = (await selectCountryRows(db, latest.id))
    .filter((r) => r.risk !== null)
    .sort((a, b) => (b.risk ?? 0) - (a.risk ?? 0) || a.iso.localeCompare(b.iso))
    .slice(0, SAMPLE_SIZE);
  if (rows.length === 0) return null;
  return insertDemoWatchlist(db, {
    name: 'Sample: highest risk (demo)',
    countries: rows.map((r) => r.iso),
    rules: [
      { kind: 'active_change', min_abs_delta: 10 },
      { kind: 'tier_change', direction: 'both' },
    ],
    owner: null,
    webhookUrl: null,
    webhookFormat: 'standard',
    webhookSecret: null,
    email: null,
  });
}
