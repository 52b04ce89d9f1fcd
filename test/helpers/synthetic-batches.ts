import countryCodes from 'i18n-iso-countries';
import type { CountrySummary } from '../../src/shared/bff-api.js';
import type { BatchRecord } from '../../src/server/store/batches.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import type { WatchlistValues } from '../../src/server/store/watchlists.js';
import { insertWatchlist } from '../../src/server/store/watchlists.js';
import { AlertEvaluator } from '../../src/server/jobs/alert-evaluator.js';

/** Real ISO 3166-1 alpha-3 codes, sorted (249 of them). */
export const ISO_CODES: readonly string[] = Object.keys(countryCodes.getAlpha3Codes()).sort();

/**
 * A batch of `isos` where every country has the same numbers: two of them with different
 * `active` make every active-change rule up to the difference fire for every country.
 */
export function syntheticBatch(
  asOf: Date,
  isos: readonly string[],
  numbers: { active: number; risk: number; tier: string },
): BatchRecord {
  return {
    asOf,
    methodologyVersion: 'test',
    global: null,
    source: 'demo_seed',
    demo: true,
    countries: isos.map(
      (iso) => ({ iso, name: `Country ${iso}`, ...numbers }) as unknown as CountrySummary,
    ),
  };
}

/** Records a batch and returns its id. */
export async function recordSynthetic(store: HistoryStore, record: BatchRecord): Promise<number> {
  const { batchId } = await store.recordBatch(record);
  if (batchId === null) throw new Error('batch not recorded');
  return batchId;
}

/** A team list written straight to the store (no limit: a fixture, not a user). */
export async function insertList(
  store: HistoryStore,
  values: Partial<WatchlistValues> & Pick<WatchlistValues, 'name' | 'countries' | 'rules'>,
): Promise<number> {
  const row = await insertWatchlist(
    store.db,
    {
      owner: null,
      webhookUrl: null,
      webhookFormat: 'standard',
      webhookSecret: null,
      email: null,
      ...values,
    },
    Number.POSITIVE_INFINITY,
  );
  if (!row) throw new Error('list not inserted');
  return row.id;
}

/**
 * An evaluator of the watchlists' rules on `store` with a silent logger and no link base, for
 * tests that drive it by hand; `now` is the test's clock.
 */
export function quietEvaluator(
  store: HistoryStore,
  now: () => number,
  options: { emailEnabled?: boolean } = {},
): AlertEvaluator {
  return new AlertEvaluator({
    db: store.db,
    now,
    logger: { info() {}, warn() {}, error() {} } as never,
    linkBase: null,
    emailEnabled: options.emailEnabled ?? false,
  });
}
