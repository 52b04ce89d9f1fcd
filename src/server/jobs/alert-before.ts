import type { AlertNumbers } from '../../shared/alerts-api.js';
import { alertNumbers, BEFORE_LOOKBACK_MS } from '../services/alerts/alert-views.js';
import { overridesInForceAt, withOverride } from '../services/team-index/overrides.js';
import type { BatchRef } from '../store/alerts.js';
import { selectCountryRows, selectLatestRowsBefore } from '../store/batches.js';
import type { Database } from '../store/connection.js';
import { selectMethodChanges } from '../store/method-changes.js';
import type { OverrideRow } from '../store/team-index.js';

/**
 * How far back a country the previous batch lacks is looked for: a week, and never across the
 * provider's last method change (not marked comparable) up to that batch, which the hold of the
 * rules (the evaluator looks at this batch and the previous one) would not see.
 */
async function lookBackFrom(db: Database, previous: BatchRef): Promise<Date> {
  const week = previous.asOf.getTime() - BEFORE_LOOKBACK_MS;
  // Oldest first: the last one at or before the previous batch.
  const changes = await selectMethodChanges(db);
  const change = changes.filter((row) => !row.comparable && row.asOf <= previous.asOf).at(-1);
  return new Date(Math.max(week, change?.asOf.getTime() ?? week));
}

/**
 * Each country's numbers before a batch, for the rules that compare two batches: the previous
 * batch's row, and for a country of `isos` that batch lacks, its latest row of the week before.
 * A batch can lack countries: one recorded from the top-50 hotspots alone (its export could no
 * longer be had: the upstream serves only the latest batch) has no row for the others, and
 * comparing with it alone would lose every tier change of theirs across it. Each row carries its
 * own `as_of`, and the overrides in force at that time (issue 31); the team weights are the
 * newer batch's (a weight change is not a move).
 */
export async function numbersBefore(
  db: Database,
  previous: BatchRef,
  isos: readonly string[],
  team: Record<string, number> | null,
): Promise<Map<string, AlertNumbers>> {
  const rows = await selectCountryRows(db, previous.id);
  const have = new Set(rows.map((row) => row.iso));
  const missing = isos.filter((iso) => !have.has(iso));
  const older =
    missing.length === 0
      ? []
      : await selectLatestRowsBefore(db, missing, await lookBackFrom(db, previous), previous.asOf);
  const overridesAt = new Map<number, Map<string, OverrideRow>>();
  const before = new Map<string, AlertNumbers>();
  for (const row of [...rows, ...older]) {
    const at = row.asOf.getTime();
    let overrides = overridesAt.get(at);
    if (!overrides) {
      overrides = await overridesInForceAt(db, row.asOf);
      overridesAt.set(at, overrides);
    }
    before.set(row.iso, withOverride(alertNumbers(row, team), overrides.get(row.iso)));
  }
  return before;
}
